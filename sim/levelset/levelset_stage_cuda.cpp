// The level-set stage on CUDA: the GPU-STL evolved on the device (gpu_stl_evolution.h), or
// rebuilt there from a CUDA particle stage's published buffer (particle_level_set_gpu.h).
#include <optional>

#include "engine/interop/shared_buffer.h"
#include "sim/levelset/gpu_stl_evolution.h"
#include "sim/levelset/levelset_stage_common.h"
#include "sim/levelset/particle_level_set_gpu.h"

namespace meniscus::sim::levelset {
namespace {

// The same equation as data for the device: F a constant, U Enright's field or none.
GpuEvolutionParams device_params(const LevelSetStageParams& params, const EvolutionParams& cpu) {
  FieldVelocity velocity;
  if (params.enright > 0) velocity = {FieldVelocity::Kind::kEnright, glm::vec3(0.0f), params.enright};
  return from_cpu_params(cpu, params.speed, velocity);
}

class CudaLevelSetStage final : public LevelSetStageBase {
 public:
  CudaLevelSetStage(const LevelSetStageParams& params, InitialLevelSet initial)
      : LevelSetStageBase(params, std::move(initial)),
        evolution_(device_params(params, evolution_params_)),
        gpu_list_(*list_) {
    if (params.particles) builder_ = std::make_unique<GpuParticleLevelSetBuilder>(particle_level_set_params(params));
  }

  SimBackend backend() const override { return SimBackend::Cuda; }

  void consume(const ParticleInput& input) override { input_ = input; }

  void step(double dt) override {
    int steps = 0;
    if (builder_) {
      if (dt > 0.0 || !built_) {
        // The producer's write() ordered its stream before the default one the GPU-STL uses.
        const auto* particles = input_.buffer ? static_cast<const Particle*>(input_.buffer->cuda_pointer()) : nullptr;
        builder_->build(gpu_list_, particles, particles ? uint32_t(input_.count) : 0u);
        time_ += dt;
        built_ = true;
        steps = 1;
      }
    } else if (dt > 0.0) {
      for (; steps < params_.steps_per_frame && gpu_list_.size() > 0; ++steps)
        time_ += evolution_.step(gpu_list_, float(time_));
    }
    // The records are made on the host from the list (cube_records.h): one download a frame.
    if (steps > 0) {
      *list_ = gpu_list_.download();
      list_changed();
    }
  }

 private:
  GpuLevelSetEvolution evolution_;
  GpuSortedTileList gpu_list_;
  std::unique_ptr<GpuParticleLevelSetBuilder> builder_;
  ParticleInput input_;
  bool built_ = false;
};

}  // namespace

std::unique_ptr<LevelSetStage> make_levelset_cuda(const LevelSetStageParams& params, InitialLevelSet initial) {
  return std::make_unique<CudaLevelSetStage>(params, std::move(initial));
}

}  // namespace meniscus::sim::levelset
