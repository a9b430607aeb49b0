#pragma once
// A scene's simulation stages as one renderer runs them: made from the registry, stepped once a
// frame in scene order (a producer before its consumers), each particle stage publishing into
// a SharedBuffer of its own per frame slot — the simulation writes slot N+1's while the GPU
// still reads slot N's — and each consumer fed its producer's buffer of the same slot.
#include <cstdint>
#include <memory>
#include <vector>

#include <vulkan/vulkan.h>

#include "engine/app/stage_registry.h"
#include "engine/interop/shared_buffer.h"
#include "engine/profile/timing_log.h"
#include "sim/common/particle_stage.h"
#include "sim/common/traced_image_stage.h"
#include "sim/levelset/levelset_stage.h"

namespace meniscus {

class StageSet {
 public:
  StageSet(const Context& context, const Scene& scene, sim::SimBackend backend, uint32_t slots);

  // The scene's backend (the --sim flag, resolved): what its stages, and the MIP's coefficient
  // stream, run on.
  sim::SimBackend backend() const { return backend_; }
  size_t size() const { return stages_.size(); }
  const StageFacts& facts(size_t i) const { return stages_[i].facts; }
  sim::Stage& stage(size_t i) { return *stages_[i].stage; }
  // The stage as its output kind, or null when it outputs another kind.
  sim::ParticleStage* particles(size_t i) const;
  sim::levelset::LevelSetStage* level_set(size_t i) const;
  sim::TracedImageStage* traced_image(size_t i) const;

  // What stage i (particles or a traced image) published into `slot`'s buffer, and how the
  // frame graph imports it: a CUDA stage's writes are ordered by the timeline wait the
  // submission carries (add_waits), a CPU stage's by the host write before the submission.
  const SharedBuffer& published(size_t i, uint32_t slot) const { return *published_[slot][i]; }

  // Steps every stage by `dt` seconds and publishes into `slot`'s buffers, whose previous frame
  // has completed. Returns each stage's time (device time when the stage measures it).
  std::vector<profile::StageSample> advance(uint32_t slot, double dt);

  // The timeline waits the submission of `slot`'s frame must carry.
  void add_waits(uint32_t slot, std::vector<VkSemaphoreSubmitInfo>& waits) const;

 private:
  // Null for a stage that publishes into no buffer (a level set).
  std::unique_ptr<SharedBuffer> make_buffer(size_t i) const;

  const Context& context_;
  sim::SimBackend backend_;
  std::vector<StageInstance> stages_;
  // [slot][stage]: null for stages that publish into no buffer.
  std::vector<std::vector<std::unique_ptr<SharedBuffer>>> published_;
};

}  // namespace meniscus
