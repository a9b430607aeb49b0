// The level-set stage on CUDA: the GPU-STL evolved on the device (gpu_stl_evolution.h).
#include "sim/levelset/gpu_stl_evolution.h"
#include "sim/levelset/levelset_stage_common.h"

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
        gpu_list_(*list_) {}

  SimBackend backend() const override { return SimBackend::Cuda; }

  void step(double dt) override {
    if (dt <= 0.0) return;
    int steps = 0;
    for (; steps < params_.steps_per_frame && gpu_list_.size() > 0; ++steps)
      time_ += evolution_.step(gpu_list_, float(time_));
    // The records are made on the host from the list (cube_records.h): one download a frame.
    if (steps > 0) {
      *list_ = gpu_list_.download();
      list_changed();
    }
  }

 private:
  GpuLevelSetEvolution evolution_;
  GpuSortedTileList gpu_list_;
};

}  // namespace

std::unique_ptr<LevelSetStage> make_levelset_cuda(const LevelSetStageParams& params, InitialLevelSet initial) {
  return std::make_unique<CudaLevelSetStage>(params, std::move(initial));
}

}  // namespace meniscus::sim::levelset
