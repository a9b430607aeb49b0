// The level-set stage on the CPU: the SortedTileList evolved on TBB threads (evolution.h), or
// rebuilt from a particle stage's frame (particle_level_set.h) and smoothed there.
#include <optional>
#include <span>

#include "engine/interop/shared_buffer.h"
#include "sim/levelset/cube_records.h"
#include "sim/levelset/levelset_stage_common.h"

namespace meniscus::sim::levelset {
namespace {

class CpuLevelSetStage final : public LevelSetStageBase {
 public:
  CpuLevelSetStage(const LevelSetStageParams& params, InitialLevelSet initial)
      : LevelSetStageBase(params, std::move(initial)), evolution_(evolution_params_) {
    if (params.particles) builder_.emplace(particle_level_set_params(params));
  }

  SimBackend backend() const override { return SimBackend::Cpu; }

  std::optional<uint32_t> write_records(SharedBuffer& target, uint32_t capacity, float phi_iso) override {
    return write_cube_records(*list_, phi_iso, static_cast<std::byte*>(target.host_pointer()), capacity,
                              box().source.c_str());
  }

  void step(double dt) override {
    if (builder_) return rebuild(dt);
    if (dt <= 0.0) return;
    apply_brush(next_brush());
    int steps = 0;
    for (; steps < params_.steps_per_frame && list_->size() > 0; ++steps) time_ += evolution_.step(*list_, float(time_));
    if (steps > 0) list_changed();
  }

 private:
  // The evolution with the brush's speed added to F, read at each voxel's nearest front point
  // so that φ stays a distance under a speed that varies along the surface.
  void apply_brush(const std::optional<BrushSpeed>& brush) {
    if (brush == brush_) return;
    brush_ = brush;
    EvolutionParams p = evolution_params_;
    if (brush) {
      p.normal_speed = [speed = params_.speed, b = *brush](glm::vec3 voxel) { return speed + brush_speed_at(b, voxel); };
      p.extend_normal_speed = true;
    }
    evolution_.set_params(std::move(p));
  }

  void rebuild(double dt) {
    if (!rebuild_due(dt)) return;
    const auto* particles = input_.buffer ? static_cast<const Particle*>(input_.buffer->host_pointer()) : nullptr;
    builder_->build(*list_, std::span<const Particle>(particles, particles ? input_.count : 0));
    time_ += dt;
    built_ = true;
    list_changed();
  }

  LevelSetEvolution evolution_;
  std::optional<BrushSpeed> brush_;
  std::optional<ParticleLevelSetBuilder> builder_;
};

}  // namespace

std::unique_ptr<LevelSetStage> make_levelset_cpu(const LevelSetStageParams& params, InitialLevelSet initial) {
  return std::make_unique<CpuLevelSetStage>(params, std::move(initial));
}

}  // namespace meniscus::sim::levelset
