#pragma once
// A simulation stage: what a scene's [[stage]] table makes. Every stage type (particles, level
// sets, later volumes) lives in sim/<method> behind this interface and is created from the
// app's one registry (engine/app/stage_registry.h), which also picks its backend. The renderer
// steps every stage once a frame, in scene order, and hands what each publishes to the passes
// and to the stages that consume it; a stage never records Vulkan commands.
#include <optional>
#include <string>
#include <vector>

#include <vulkan/vulkan.h>

#include "sim/common/backend.h"

namespace meniscus {
class SharedBuffer;
}

namespace meniscus::sim {

namespace levelset {
class LevelSetStage;
}

// What a stage publishes every frame. The kind decides which passes may draw it and which
// stages may consume it: a scene naming an output of the wrong kind is a scene error.
enum class StageOutput {
  Particles,  // sim::Particle records in a SharedBuffer (ParticleStage)
  LevelSet,   // a sparse level set, drawn from its cube records (sim/levelset/levelset_stage.h)
  TracedImage,  // a ray-traced frame in a SharedBuffer (sim/common/traced_image_stage.h)
};

const char* stage_output_name(StageOutput kind);  // "particles", "level set", "traced image"

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

// Another stage's particles as published for this frame: `buffer` holds `count` sim::Particle
// records, written by the producer's write() before the consumer's step(). The buffer's kind
// matches the scene's backend (host memory for the CPU, CUDA-imported memory for CUDA).
class ParticleStage;
struct ParticleInput {
  const ParticleStage* producer = nullptr;  // a CUDA consumer orders its stream after the producer's write
  const SharedBuffer* buffer = nullptr;
  size_t count = 0;
  float particle_radius = 0.0f;  // the producer's particle radius, when it has one
};

class Stage {
 public:
  virtual ~Stage() = default;
  virtual SimBackend backend() const = 0;
  virtual StageOutput output() const = 0;
  // Back to the state of the first frame (the UI's "reset").
  virtual void reset() {}
  virtual std::vector<StageControl> controls() { return {}; }
  // A consumer of particles receives the producer's frame before each step().
  virtual void consume(const ParticleInput& input) { (void)input; }
  // A consumer of a level set receives its producer, stepped for this frame, before each step().
  virtual void consume_level_set(levelset::LevelSetStage& producer) { (void)producer; }
  // Advances the simulation by `dt` seconds of scene time (0 while paused).
  virtual void step(double dt) = 0;
  // Device time of the last step() when the stage can measure it (CUDA events); the renderer
  // falls back to the CPU wall time of the step and its publishing otherwise.
  virtual std::optional<double> device_ms() const { return std::nullopt; }
  // One line for the UI: "12,345 of 20,000 particles", "3,210 tiles".
  virtual std::string summary() const = 0;
};

}  // namespace meniscus::sim
