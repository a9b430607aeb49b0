// The CUDA backend of the refraction stages (refraction_tracer.h): the frame's mesh copied to
// the device and its kd-tree built there (build_ms: the copy and the build); the caustic made
// there (photons, their kd-tree and the estimate: photon_ms is the photons until their counts
// are read, caustic_ms the photon tree's build, the estimate being queued); the view traced by
// WhittedCuda into the stage's device image over that caustic, then copied on the device into
// whichever CUDA-shared buffer the frame publishes to, and "written" signalled on the timeline
// the frame's submission waits for. Neither the caustic nor the image comes back to the host.
#include <algorithm>
#include <chrono>
#include <string>

#include "engine/core/context.h"
#include "engine/interop/cuda_device.h"
#include "engine/interop/shared_buffer.h"
#include "engine/interop/timeline.h"
#include "engine/profile/cuda_event_timer.h"
#include "sim/common/cuda_support.cuh"
#include "sim/photon/caustic_map_cuda.h"
#include "sim/photon/caustic_photons_cuda.h"
#include "sim/photon/device_surface.h"
#include "sim/raytrace/refraction_tracer.h"
#include "sim/raytrace/whitted_cuda.h"

namespace meniscus::sim::raytrace {
namespace {

// A stream of our own, destroyed (once its work is finished) with its owner.
class OwnedStream {
 public:
  OwnedStream() { MENISCUS_SIM_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~OwnedStream() {
    cudaStreamSynchronize(stream_);
    cudaStreamDestroy(stream_);
  }
  OwnedStream(const OwnedStream&) = delete;
  OwnedStream& operator=(const OwnedStream&) = delete;
  operator cudaStream_t() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

class RefractionTracerCuda final : public RefractionTracer {
 public:
  explicit RefractionTracerCuda(const Context& context) : timeline_(context, /*cuda_shared=*/true) {}
  // The queued work finishes before the arrays it reads are freed.
  ~RefractionTracerCuda() override { cudaStreamSynchronize(stream_); }

  SimBackend backend() const override { return SimBackend::Cuda; }

  const kdtree::TriangleKdTree& begin_frame(const photon::TriangleSoup& mesh, std::span<const glm::vec3> normals,
                                            const photon::Optics& optics, RefractionFrameStats& stats) override {
    const auto start = std::chrono::steady_clock::now();
    surface_.build(mesh.vertices, mesh.indices, normals, optics, stream_);
    stats.build_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return no_host_tree_;
  }

  photon::CausticImage caustics(const photon::RefractingSurface& surface, const photon::Sun& sun, float floor_y,
                                const photon::PhotonParams& params, const photon::FloorGrid& grid, uint32_t k,
                                RefractionFrameStats& stats) override {
    const auto start = std::chrono::steady_clock::now();
    photon::CausticPhotons photons;
    photon::CausticImage image =
        photon::estimate_caustics_cuda(caustic_, surface, surface_, sun, floor_y, params, grid, k, stream_, photons);
    stats.photons_stored = photons.stored;
    stats.caustic_ms = image.tree_ms;
    stats.photon_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() - image.tree_ms;
    return image;
  }

  TraceImage trace(const TraceScene& scene, const TraceCamera& camera, const TraceParams& params) override {
    pixels_ = size_t(params.width) * params.height;
    image_.reserve(pixels_, "refraction (cuda): the traced image");
    // The frame before's trace has finished by now, as a rule: reading its time here rather than
    // after this trace keeps the host from waiting for the device every frame.
    if (traced_) last_ms_ = timer_.elapsed_ms();
    timer_.begin(stream_);
    tracer_.trace(surface_, scene, camera, params, image_.get(), stream_, caustic_.irradiance());
    timer_.end(stream_);
    traced_ = true;
    TraceImage image;  // the pixels stay on the device
    image.width = params.width;
    image.height = params.height;
    return image;
  }

  void clear(uint32_t width, uint32_t height) override {
    pixels_ = size_t(width) * height;
    image_.reserve(pixels_, "refraction (cuda): the traced image");
    MENISCUS_SIM_CUDA_CHECK(cudaMemsetAsync(image_.get(), 0, pixels_ * sizeof(TracedPixel), stream_));
    traced_ = false;
  }

  void write(SharedBuffer& target) override {
    if (target.kind() != SharedMemory::Cuda || target.size() < pixels_ * sizeof(TracedPixel))
      throw DeviceError("refraction (cuda): target is not a CUDA-shared buffer of the image's size");
    // The caller guarantees no GPU work still reads `target` (TracedImageStage::write), so only
    // the trace orders before the copy: both are on this stream.
    MENISCUS_SIM_CUDA_CHECK(cudaMemcpyAsync(target.cuda_pointer(), image_.get(), pixels_ * sizeof(TracedPixel),
                                            cudaMemcpyDeviceToDevice, stream_));
    timeline_.cuda_signal(++written_, stream_);
  }

  std::optional<GpuWait> gpu_wait() const override {
    if (written_ == 0) return std::nullopt;
    return GpuWait{timeline_.handle(), written_};
  }

  std::optional<double> device_ms() const override { return last_ms_; }

 private:
  TimelineSemaphore timeline_;
  OwnedStream stream_;
  photon::DeviceSurface surface_;
  const kdtree::TriangleKdTree no_host_tree_;  // the tree lives on the device (surface_)
  photon::CausticMapCuda caustic_;
  WhittedCuda tracer_;
  DeviceArray<TracedPixel> image_;
  size_t pixels_ = 0;
  uint64_t written_ = 0;  // signalled by the last write()
  profile::CudaEventTimer timer_;
  bool traced_ = false;  // the timer holds a trace
  std::optional<double> last_ms_;
};

}  // namespace

std::unique_ptr<RefractionTracer> make_refraction_tracer_cuda(const Context& context) {
  std::string why;
  if (!find_cuda_device(context.info(), &why)) throw DeviceError("refraction (cuda): " + why);
  return std::make_unique<RefractionTracerCuda>(context);
}

}  // namespace meniscus::sim::raytrace
