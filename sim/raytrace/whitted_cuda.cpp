// Host side of the CUDA tracer (whitted_cuda.h): the kernel launched over the surface's device
// copy (whitted_cuda.cu), with the caustic on the device or copied over.
#include "sim/raytrace/whitted_cuda.h"

#include <chrono>
#include <string>

#include "sim/common/cuda_support.cuh"
#include "sim/photon/caustic_image.h"
#include "sim/photon/device_surface.h"
#include "sim/raytrace/whitted_cuda_launch.h"

namespace meniscus::sim::raytrace {

struct WhittedCuda::Device {
  DeviceArray<float> caustics;
  DeviceArray<DeviceRayCounts> counts;
  cudaStream_t stream = nullptr;  // of the last trace
  uint64_t primary = 0;           // its primary rays
};

WhittedCuda::WhittedCuda() {
  std::string why;
  if (!cuda_device_answers(&why)) throw DeviceError("ray tracer (cuda): " + why);
  device_ = std::make_unique<Device>();
  device_->counts.reserve(1, "ray tracer (cuda): the ray counts");
}

WhittedCuda::~WhittedCuda() {
  // The device arrays must outlive the last trace that reads them.
  if (device_) cudaStreamSynchronize(device_->stream);
}

void WhittedCuda::trace(const photon::DeviceSurface& surface, const TraceScene& scene, const TraceCamera& camera,
                        const TraceParams& params, glm::vec4* out, void* stream, const float* caustic) {
  TraceSetup setup = prepare_trace(scene, camera, params);
  Device& d = *device_;
  const auto s = static_cast<cudaStream_t>(stream);
  d.stream = s;
  PathScene& path = setup.scene;
  path.indices = surface.indices();
  path.normals = surface.normals();
  path.optics = surface.optics();
  if (scene.caustics && caustic) {
    path.caustics.irradiance = caustic;
  } else if (scene.caustics) {
    const std::vector<float>& irradiance = scene.caustics->irradiance;
    d.caustics.reserve(irradiance.size(), "ray tracer (cuda): the caustic");
    MENISCUS_SIM_CUDA_CHECK(cudaMemcpyAsync(d.caustics.get(), irradiance.data(), irradiance.size() * sizeof(float),
                                            cudaMemcpyHostToDevice, s));
    path.caustics.irradiance = d.caustics.get();
  }
  MENISCUS_SIM_CUDA_CHECK(cudaMemsetAsync(d.counts.get(), 0, sizeof(DeviceRayCounts), s));
  launch_whitted(surface.tree(), path, setup.rays, out, d.counts.get(), s);
  d.primary = primary_rays(params);
}

TraceStats WhittedCuda::last_stats() const {
  DeviceRayCounts counts{};
  MENISCUS_SIM_CUDA_CHECK(
      cudaMemcpyAsync(&counts, device_->counts.get(), sizeof counts, cudaMemcpyDeviceToHost, device_->stream));
  MENISCUS_SIM_CUDA_CHECK(cudaStreamSynchronize(device_->stream));
  TraceStats stats;
  stats.primary = device_->primary;
  stats.hits = counts.hits;
  stats.secondary = counts.secondary;
  stats.shadow = counts.shadow;
  return stats;
}

namespace {

// A traced image brought back from the device, with its ray counts.
TraceImage downloaded(const DeviceArray<glm::vec4>& pixels, const TraceParams& params, const TraceStats& stats) {
  const std::vector<glm::vec4> rgba = pixels.download(size_t(params.width) * params.height);
  TraceImage image;
  image.width = params.width;
  image.height = params.height;
  image.rgb.reserve(rgba.size());
  for (const glm::vec4& p : rgba) image.rgb.emplace_back(p);
  image.stats = stats;
  return image;
}

}  // namespace

TraceImage trace_image_cuda(const kdtree::TriangleKdTree& tree, const TraceScene& scene, const TraceCamera& camera,
                            const TraceParams& params) {
  prepare_trace(scene, camera, params);  // bad input before any allocation
  WhittedCuda tracer;
  const auto start = std::chrono::steady_clock::now();
  photon::DeviceSurface surface;
  surface.upload(tree, scene.indices, scene.normals, *scene.optics, nullptr);
  DeviceArray<glm::vec4> pixels;
  pixels.reserve(size_t(params.width) * params.height, "ray tracer (cuda): the image");
  tracer.trace(surface, scene, camera, params, pixels.get(), nullptr);
  TraceImage image = downloaded(pixels, params, tracer.last_stats());
  image.stats.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return image;
}

TraceImage build_and_trace_cuda(const TraceScene& scene, const TraceCamera& camera, const TraceParams& params,
                                double& build_ms) {
  prepare_trace(scene, camera, params);  // bad input before any allocation
  WhittedCuda tracer;
  DeviceArray<glm::vec4> pixels;
  const size_t count = size_t(params.width) * params.height;
  pixels.reserve(count, "ray tracer (cuda): the image");
  photon::DeviceSurface surface;
  MENISCUS_SIM_CUDA_CHECK(cudaDeviceSynchronize());
  auto start = std::chrono::steady_clock::now();
  surface.build(scene.vertices, scene.indices, scene.normals, *scene.optics, nullptr);
  MENISCUS_SIM_CUDA_CHECK(cudaDeviceSynchronize());
  build_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  start = std::chrono::steady_clock::now();
  tracer.trace(surface, scene, camera, params, pixels.get(), nullptr);
  const TraceStats stats = tracer.last_stats();  // waits for the trace
  const double trace_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  TraceImage image = downloaded(pixels, params, stats);
  image.stats.ms = trace_ms;
  return image;
}

}  // namespace meniscus::sim::raytrace
