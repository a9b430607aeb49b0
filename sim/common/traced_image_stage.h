#pragma once
// A simulation stage whose output is a ray-traced frame: the whole image, traced by the stage's
// backend and published into a SharedBuffer that a pass composites (passes/raytrace). The
// image is linear radiance, RGBA32F per pixel (alpha 1), row 0 at the top.
#include <cstdint>
#include <optional>

#include <glm/vec4.hpp>

#include "sim/common/stage.h"

namespace meniscus::sim {

using TracedPixel = glm::vec4;

class TracedImageStage : public Stage {
 public:
  StageOutput output() const override { return StageOutput::TracedImage; }
  virtual uint32_t width() const = 0;
  virtual uint32_t height() const = 0;
  // Publishes the last step's image into `target` (width() x height() TracedPixels): a Host
  // SharedBuffer for the CPU backend, a Cuda one for the CUDA backend. The caller guarantees no
  // GPU work still reads `target`.
  virtual void write(SharedBuffer& target) = 0;
  // For CUDA stages: what the submission reading `target` must wait for after write().
  virtual std::optional<GpuWait> gpu_wait() const { return std::nullopt; }
};

}  // namespace meniscus::sim
