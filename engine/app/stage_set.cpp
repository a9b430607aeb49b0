#include "engine/app/stage_set.h"

#include <chrono>

#include "engine/core/context.h"

namespace meniscus {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

}  // namespace

StageSet::StageSet(const Context& context, const Scene& scene, sim::SimBackend backend, uint32_t slots)
    : context_(context), backend_(backend), stages_(make_stages(scene, backend, context)), particle_buffers_(slots) {
  for (auto& buffers : particle_buffers_)
    for (size_t i = 0; i < stages_.size(); ++i)
      buffers.push_back(particles(i) ? make_particle_buffer(*particles(i), i) : nullptr);
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

std::unique_ptr<SharedBuffer> StageSet::make_particle_buffer(const sim::ParticleStage& stage, size_t i) const {
  const std::string name = stages_[i].facts.name + ".particles";
  return std::make_unique<SharedBuffer>(context_, std::max<size_t>(stage.capacity(), 1) * sizeof(sim::Particle),
                                        stage.backend() == sim::SimBackend::Cuda ? SharedMemory::Cuda : SharedMemory::Host,
                                        name.c_str());
}

std::vector<profile::StageSample> StageSet::advance(uint32_t slot, double dt) {
  std::vector<profile::StageSample> samples;
  auto& buffers = particle_buffers_[slot];
  for (size_t i = 0; i < stages_.size(); ++i) {
    sim::Stage& stage = *stages_[i].stage;
    const auto start = Clock::now();
    if (const auto& input = stages_[i].facts.input) {
      const sim::ParticleStage& producer = *particles(*input);
      stage.consume({&producer, buffers[*input].get(), producer.count(), producer.particle_radius()});
    }
    stage.step(dt);
    if (sim::ParticleStage* p = particles(i)) {
      // A reset with smaller particles needs bigger buffers: rare, so simply idle the device.
      if (buffers[i]->size() < p->capacity() * sizeof(sim::Particle)) {
        context_.wait_idle();
        for (auto& slot_buffers : particle_buffers_) slot_buffers[i] = make_particle_buffer(*p, i);
      }
      p->write(*buffers[i]);
    }
    // CUDA stages report their kernels' time from CUDA events; CPU stages their wall time.
    samples.push_back({stages_[i].facts.name, sim::backend_name(stage.backend()), stage.device_ms().value_or(ms_since(start))});
  }
  return samples;
}

void StageSet::add_waits(uint32_t slot, std::vector<VkSemaphoreSubmitInfo>& waits) const {
  for (size_t i = 0; i < stages_.size(); ++i) {
    const sim::ParticleStage* p = particles(i);
    if (!p) continue;
    if (auto w = p->gpu_wait(*particle_buffers_[slot][i])) {
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
