#pragma once
// A simulation stage that produces particles for the renderer, on the CPU or with CUDA.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "sim/common/particle.h"
#include "sim/common/stage.h"

namespace meniscus::sim {

class ParticleStage : public Stage {
 public:
  StageOutput output() const override { return StageOutput::Particles; }
  virtual std::string_view name() const = 0;
  virtual size_t count() const = 0;
  // Most particles the stage will ever publish (emitters grow count() up to it): the size of
  // the buffers write() fills.
  virtual size_t capacity() const { return count(); }
  // The radius particles are drawn and meshed at, when the stage has one (0: it has none).
  virtual float particle_radius() const { return 0.0f; }
  std::string summary() const override;
  // Publishes the current state into `target` (count() particles): a Host SharedBuffer for
  // the CPU backend, a Cuda one for the CUDA backend. Unless gpu_done_reading() was used, the
  // caller guarantees no GPU work still reads `target`.
  virtual void write(SharedBuffer& target) = 0;
  // For CUDA stages: what the submission reading `target` must wait for after write().
  virtual std::optional<GpuWait> gpu_wait(const SharedBuffer& target) const {
    (void)target;
    return std::nullopt;
  }
  // For CUDA stages: makes later work on `cuda_stream` (a cudaStream_t; null: the legacy
  // default stream) wait for the last write(), so that another CUDA stage reads the published
  // particles in stream order, with no host wait.
  virtual void order_after_write(void* cuda_stream) const { (void)cuda_stream; }
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
