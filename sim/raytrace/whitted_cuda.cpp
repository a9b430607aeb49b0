// Host side of the CUDA tracer (whitted_cuda.h): the frame's tree and scene copied into device
// arrays that grow as the frames need, and the kernel launched over them (whitted_cuda.cu).
#include "sim/raytrace/whitted_cuda.h"

#include <chrono>
#include <span>
#include <string>

#include "sim/common/cuda_support.cuh"
#include "sim/photon/caustic_image.h"
#include "sim/raytrace/whitted_cuda_launch.h"

namespace meniscus::sim::raytrace {
namespace {

// `host` copied to `array` on `stream` (pageable memory is staged at the call, so `host` may
// go at once); null for an empty span.
template <class T>
const T* upload(DeviceArray<T>& array, std::span<const T> host, const char* what, cudaStream_t stream) {
  if (host.empty()) return nullptr;
  array.reserve(host.size(), what);
  MENISCUS_SIM_CUDA_CHECK(cudaMemcpyAsync(array.get(), host.data(), host.size_bytes(), cudaMemcpyHostToDevice, stream));
  return array.get();
}

}  // namespace

struct WhittedCuda::Device {
  DeviceArray<kdtree::TriangleKdNode> nodes;
  DeviceArray<uint32_t> leaf_triangles;
  DeviceArray<kdtree::LeafTriangle> leaf_geometry;
  DeviceArray<glm::vec3> vertices, normals;
  DeviceArray<uint32_t> indices;
  DeviceArray<photon::Medium> media;
  DeviceArray<photon::Interface> interfaces;
  DeviceArray<uint8_t> triangle_interface;
  DeviceArray<float> caustics;
  DeviceArray<DeviceRayCounts> counts;
  cudaStream_t stream = nullptr;  // of the last trace
};

WhittedCuda::WhittedCuda() {
  std::string why;
  if (!cuda_device_answers(&why)) throw DeviceError("ray tracer (cuda): " + why);
  device_ = std::make_unique<Device>();
  device_->counts.reserve(1, "ray tracer (cuda): the ray counts");
}

WhittedCuda::~WhittedCuda() {
  // The device arrays must outlive the last trace that reads them.
  if (device_ && device_->stream) cudaStreamSynchronize(device_->stream);
}

void WhittedCuda::trace(const kdtree::TriangleKdTree& tree, const TraceScene& scene, const TraceCamera& camera,
                        const TraceParams& params, glm::vec4* out, void* stream) {
  TraceSetup setup = prepare_trace(scene, camera, params);
  Device& d = *device_;
  const auto s = static_cast<cudaStream_t>(stream);
  d.stream = s;
  const kdtree::TriangleKdView view{
      upload(d.nodes, std::span<const kdtree::TriangleKdNode>(tree.nodes), "ray tracer (cuda): the kd-tree's nodes", s),
      upload(d.leaf_triangles, std::span<const uint32_t>(tree.leaf_triangles), "ray tracer (cuda): the leaves", s),
      upload(d.leaf_geometry, std::span<const kdtree::LeafTriangle>(tree.leaf_geometry),
             "ray tracer (cuda): the leaves' triangles", s),
      tree.lo, tree.hi};
  PathScene& path = setup.scene;
  path.vertices = upload(d.vertices, scene.vertices, "ray tracer (cuda): the vertices", s);
  path.indices = upload(d.indices, scene.indices, "ray tracer (cuda): the triangles", s);
  path.normals = upload(d.normals, scene.normals, "ray tracer (cuda): the vertex normals", s);
  const photon::Optics& optics = *scene.optics;
  path.optics = {upload(d.media, std::span<const photon::Medium>(optics.media), "ray tracer (cuda): the media", s),
                 upload(d.interfaces, std::span<const photon::Interface>(optics.interfaces),
                        "ray tracer (cuda): the interfaces", s),
                 upload(d.triangle_interface, std::span<const uint8_t>(optics.triangle_interface),
                        "ray tracer (cuda): the triangles' interfaces", s)};
  if (scene.caustics)
    path.caustics.irradiance =
        upload(d.caustics, std::span<const float>(scene.caustics->irradiance), "ray tracer (cuda): the caustic", s);
  MENISCUS_SIM_CUDA_CHECK(cudaMemsetAsync(d.counts.get(), 0, sizeof(DeviceRayCounts), s));
  launch_whitted(view, path, setup.rays, out, d.counts.get(), s);
  primary_ = uint64_t(params.width) * params.height * params.supersample * params.supersample;
}

TraceStats WhittedCuda::last_stats() const {
  DeviceRayCounts counts{};
  MENISCUS_SIM_CUDA_CHECK(
      cudaMemcpyAsync(&counts, device_->counts.get(), sizeof counts, cudaMemcpyDeviceToHost, device_->stream));
  MENISCUS_SIM_CUDA_CHECK(cudaStreamSynchronize(device_->stream));
  TraceStats stats;
  stats.primary = primary_;
  stats.hits = counts.hits;
  stats.secondary = counts.secondary;
  stats.shadow = counts.shadow;
  return stats;
}

TraceImage trace_image_cuda(const kdtree::TriangleKdTree& tree, const TraceScene& scene, const TraceCamera& camera,
                            const TraceParams& params) {
  WhittedCuda tracer;
  prepare_trace(scene, camera, params);  // bad input before any allocation
  const auto start = std::chrono::steady_clock::now();
  DeviceArray<glm::vec4> pixels;
  pixels.reserve(size_t(params.width) * params.height, "ray tracer (cuda): the image");
  tracer.trace(tree, scene, camera, params, pixels.get(), nullptr);
  const std::vector<glm::vec4> rgba = pixels.download(size_t(params.width) * params.height);
  TraceImage image;
  image.width = params.width;
  image.height = params.height;
  image.rgb.reserve(rgba.size());
  for (const glm::vec4& p : rgba) image.rgb.emplace_back(p);
  image.stats = tracer.last_stats();
  image.stats.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return image;
}

}  // namespace meniscus::sim::raytrace
