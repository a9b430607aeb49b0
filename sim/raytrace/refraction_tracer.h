#pragma once
// Where a refraction stage (refraction_stages.h) traces its frames and how it publishes them:
// the part of the stage that differs between its backends. The CPU traces the photons and the
// view on its threads and copies the pixels into the host-visible shared buffer; CUDA traces
// both on the device and copies the image device to device into the CUDA-shared buffer, which
// the frame's submission waits for on a timeline.
#include <cstdint>
#include <memory>
#include <optional>

#include "sim/common/traced_image_stage.h"
#include "sim/raytrace/refraction_frame.h"

namespace meniscus {
class Context;
}

namespace meniscus::sim::raytrace {

// Steps 2 and 3 of render_refraction (FrameBackend) for this backend. trace() keeps the pixels
// for write() to publish and returns the stats alone.
class RefractionTracer : public FrameBackend {
 public:
  virtual SimBackend backend() const = 0;
  // A black width x height image instead (no triangles to trace).
  virtual void clear(uint32_t width, uint32_t height) = 0;
  virtual void write(SharedBuffer& target) = 0;
  virtual std::optional<GpuWait> gpu_wait() const { return std::nullopt; }
  // The device time of a recent trace (CUDA: the frame before's, whose end the host need not
  // wait for); none on the CPU.
  virtual std::optional<double> device_ms() const { return std::nullopt; }
};

std::unique_ptr<RefractionTracer> make_refraction_tracer_cpu();

// DeviceError when built without CUDA or when no CUDA device matches the Vulkan device.
std::unique_ptr<RefractionTracer> make_refraction_tracer_cuda(const Context& context);

}  // namespace meniscus::sim::raytrace
