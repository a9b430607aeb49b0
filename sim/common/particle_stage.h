#pragma once
// A simulation stage that produces particles for the renderer, on the CPU or with CUDA.
#include <cstddef>
#include <optional>
#include <string_view>

#include <vulkan/vulkan.h>

#include "sim/common/backend.h"
#include "sim/common/particle.h"

namespace meniscus {
class SharedBuffer;
}

namespace meniscus::sim {

// A timeline value the frame's submission must wait for before reading the shared buffer.
struct GpuWait {
  VkSemaphore semaphore;
  uint64_t value;
};

class ParticleStage {
 public:
  virtual ~ParticleStage() = default;
  virtual std::string_view name() const = 0;
  virtual SimBackend backend() const = 0;
  virtual size_t count() const = 0;
  // Advances the simulation by `dt` seconds (in the stage's own fixed substeps).
  virtual void step(double dt) = 0;
  // Publishes the current state into `target` (count() particles). The caller guarantees no
  // GPU work still reads `target`.
  virtual void write(SharedBuffer& target) = 0;
  // Device time of the last step() when the stage can measure it (CUDA events); the renderer
  // falls back to the CPU wall time of step() + write() otherwise.
  virtual std::optional<double> device_ms() const { return std::nullopt; }
  // For CUDA stages: what the submission reading `target` must wait for after write().
  virtual std::optional<GpuWait> gpu_wait(const SharedBuffer& target) const {
    (void)target;
    return std::nullopt;
  }
};

}  // namespace meniscus::sim
