// The level-set stage on the CPU: the SortedTileList evolved on TBB threads (evolution.h).
#include "sim/levelset/levelset_stage_common.h"

namespace meniscus::sim::levelset {
namespace {

class CpuLevelSetStage final : public LevelSetStageBase {
 public:
  CpuLevelSetStage(const LevelSetStageParams& params, InitialLevelSet initial)
      : LevelSetStageBase(params, std::move(initial)), evolution_(evolution_params_) {}

  SimBackend backend() const override { return SimBackend::Cpu; }

  void step(double dt) override {
    if (dt <= 0.0) return;
    int steps = 0;
    for (; steps < params_.steps_per_frame && list_->size() > 0; ++steps) time_ += evolution_.step(*list_, float(time_));
    if (steps > 0) list_changed();
  }

 private:
  LevelSetEvolution evolution_;
};

}  // namespace

std::unique_ptr<LevelSetStage> make_levelset_cpu(const LevelSetStageParams& params, InitialLevelSet initial) {
  return std::make_unique<CpuLevelSetStage>(params, std::move(initial));
}

}  // namespace meniscus::sim::levelset
