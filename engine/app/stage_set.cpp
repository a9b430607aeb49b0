#include "engine/app/stage_set.h"

#include <chrono>

#include "engine/core/context.h"
#include "engine/profile/cpu_timer.h"

namespace meniscus {
namespace {

using Clock = std::chrono::steady_clock;

using profile::ms_since;

}  // namespace

StageSet::StageSet(const Context& context, const Scene& scene, sim::SimBackend backend, uint32_t slots)
    : context_(context), backend_(backend), stages_(make_stages(scene, backend, context)), published_(slots) {
  for (auto& buffers : published_)
    for (size_t i = 0; i < stages_.size(); ++i) buffers.push_back(make_buffer(i));
}

sim::ParticleStage* StageSet::particles(size_t i) const {
  return stages_[i].facts.output == sim::StageOutput::Particles ? static_cast<sim::ParticleStage*>(stages_[i].stage.get())
                                                                 : nullptr;
}

sim::levelset::LevelSetStage* StageSet::level_set(size_t i) const {
  return stages_[i].facts.output == sim::StageOutput::LevelSet
             ? static_cast<sim::levelset::LevelSetStage*>(stages_[i].stage.get())
             : nullptr;
}

sim::TracedImageStage* StageSet::traced_image(size_t i) const {
  return stages_[i].facts.output == sim::StageOutput::TracedImage
             ? static_cast<sim::TracedImageStage*>(stages_[i].stage.get())
             : nullptr;
}

std::unique_ptr<SharedBuffer> StageSet::make_buffer(size_t i) const {
  size_t bytes = 0;
  std::string name = stages_[i].facts.name;
  if (const sim::ParticleStage* p = particles(i)) {
    bytes = std::max<size_t>(p->capacity(), 1) * sizeof(sim::Particle);
    name += ".particles";
  } else if (const sim::TracedImageStage* t = traced_image(i)) {
    bytes = size_t(t->width()) * t->height() * sizeof(sim::TracedPixel);
    name += ".image";
  } else {
    return nullptr;
  }
  const sim::Stage& stage = *stages_[i].stage;
  return std::make_unique<SharedBuffer>(context_, bytes,
                                        stage.backend() == sim::SimBackend::Cuda ? SharedMemory::Cuda : SharedMemory::Host,
                                        name.c_str());
}

std::vector<profile::StageSample> StageSet::advance(uint32_t slot, double dt) {
  std::vector<profile::StageSample> samples;
  auto& buffers = published_[slot];
  for (size_t i = 0; i < stages_.size(); ++i) {
    sim::Stage& stage = *stages_[i].stage;
    const auto start = Clock::now();
    if (const auto& input = stages_[i].facts.input) {
      if (sim::levelset::LevelSetStage* level_set = this->level_set(*input)) {
        stage.consume_level_set(*level_set);
      } else {
        const sim::ParticleStage& producer = *particles(*input);
        stage.consume({&producer, buffers[*input].get(), producer.count(), producer.particle_radius()});
      }
    }
    stage.step(dt);
    if (sim::ParticleStage* p = particles(i)) {
      // A reset with smaller particles needs bigger buffers: rare, so simply idle the device.
      if (buffers[i]->size() < p->capacity() * sizeof(sim::Particle)) {
        context_.wait_idle();
        for (auto& slot_buffers : published_) slot_buffers[i] = make_buffer(i);
      }
      p->write(*buffers[i]);
    }
    if (sim::TracedImageStage* t = traced_image(i)) t->write(*buffers[i]);
    // CUDA stages report their kernels' time from CUDA events; CPU stages their wall time.
    samples.push_back({stages_[i].facts.name, sim::backend_name(stage.backend()), stage.device_ms().value_or(ms_since(start))});
  }
  return samples;
}

void StageSet::add_waits(uint32_t slot, std::vector<VkSemaphoreSubmitInfo>& waits) const {
  for (size_t i = 0; i < stages_.size(); ++i) {
    std::optional<sim::GpuWait> w;
    if (const sim::ParticleStage* p = particles(i)) w = p->gpu_wait(*published_[slot][i]);
    if (const sim::TracedImageStage* t = traced_image(i)) w = t->gpu_wait();
    if (w) {
      VkSemaphoreSubmitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
      wait.semaphore = w->semaphore;
      wait.value = w->value;
      // Passes read the particles from vertex and compute shaders, and copies: wait for all.
      wait.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
      waits.push_back(wait);
    }
  }
}

}  // namespace meniscus
