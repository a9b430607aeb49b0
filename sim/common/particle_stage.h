#pragma once
// A simulation stage that produces particles for the renderer, on the CPU or with CUDA.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <vulkan/vulkan.h>

#include "sim/common/backend.h"
#include "sim/common/particle.h"

namespace meniscus {
class SharedBuffer;
}

namespace meniscus::sim {

// A timeline value a frame's submission waits for (gpu_wait) or signals (gpu_done_reading).
struct GpuWait {
  VkSemaphore semaphore;
  uint64_t value;
};

// A setting a user may change while the stage runs; the UI draws a slider for each. The stage
// reads *value at its next step, or, for `resets`, at the reset() the UI then calls (a new
// particle size means a new particle count).
struct StageControl {
  std::string label;
  float* value;
  float min, max;
  bool logarithmic;
  bool resets = false;
};

class ParticleStage {
 public:
  virtual ~ParticleStage() = default;
  virtual std::string_view name() const = 0;
  virtual SimBackend backend() const = 0;
  virtual size_t count() const = 0;
  // Most particles the stage will ever publish (emitters grow count() up to it): the size of
  // the buffers write() fills.
  virtual size_t capacity() const { return count(); }
  // Back to the state of the first frame (the UI's "reset").
  virtual void reset() {}
  virtual std::vector<StageControl> controls() { return {}; }
  // Advances the simulation by `dt` seconds (in the stage's own fixed substeps).
  virtual void step(double dt) = 0;
  // Publishes the current state into `target` (count() particles): a Host SharedBuffer for
  // the CPU backend, a Cuda one for the CUDA backend. Unless gpu_done_reading() was used, the
  // caller guarantees no GPU work still reads `target`.
  virtual void write(SharedBuffer& target) = 0;
  // Device time of the last step() when the stage can measure it (CUDA events); the renderer
  // falls back to the CPU wall time of step() + write() otherwise.
  virtual std::optional<double> device_ms() const { return std::nullopt; }
  // For CUDA stages: what the submission reading `target` must wait for after write().
  virtual std::optional<GpuWait> gpu_wait(const SharedBuffer& target) const {
    (void)target;
    return std::nullopt;
  }
  // For CUDA stages: a timeline value the submission reading `target` signals when it has
  // finished reading ("done reading"). Asking for it is a promise to submit that signal: the
  // stage's next write() makes its stream wait for the value before overwriting. A renderer
  // that does not ask must instead guarantee, as write() says, that no GPU work still reads
  // `target` (e.g. by waiting on the frame's fence).
  virtual std::optional<GpuWait> gpu_done_reading(const SharedBuffer& target) {
    (void)target;
    return std::nullopt;
  }
};

}  // namespace meniscus::sim
