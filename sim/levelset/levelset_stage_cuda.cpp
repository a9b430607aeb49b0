// The level-set stage on CUDA: the GPU-STL evolved on the device (gpu_stl_evolution.h), or
// rebuilt there from a CUDA particle stage's published buffer (particle_level_set_gpu.h); its
// cube records written on the device into the frame's shared buffer (gpu_stl_records.h), the
// submission ordered after them by a timeline semaphore. A frame queues its work and waits for
// none of it: the list's counters come back a frame or two late (poll()), which is when a pass
// that outgrew the allocation is seen and run again (gpu_stl_list.h). The list reaches the host
// only when records() asks (an export), never in a frame.
#include <cmath>
#include <optional>
#include <stdexcept>

#include "engine/interop/shared_buffer.h"
#include "engine/interop/timeline.h"
#include "sim/common/particle_stage.h"
#include "sim/levelset/gpu_stl_evolution.h"
#include "sim/levelset/gpu_stl_records.h"
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
  CudaLevelSetStage(const LevelSetStageParams& params, InitialLevelSet initial, const Context& context)
      : LevelSetStageBase(params, std::move(initial)),
        evolution_(std::in_place, device_params(params, evolution_params_)),
        gpu_list_(*list_),
        timeline_(context, /*cuda_shared=*/true) {
    if (params.particles) builder_ = std::make_unique<GpuParticleLevelSetBuilder>(particle_level_set_params(params));
    seen_ = gpu_list_.counters();  // the initial list's (a particle stage's is empty until its first frame)
  }

  SimBackend backend() const override { return SimBackend::Cuda; }
  // The tile count of a frame or two back (the device's, read without waiting), or the host
  // list's after records() downloaded it.
  size_t tiles() const override { return host_stale_ ? seen_.size : list_->size(); }

  void step(double dt) override {
    seen_ = gpu_list_.poll();
    if (!builder_) {
      if (!std::isfinite(seen_.dt)) throw std::invalid_argument("TvdRungeKutta::step: nothing moves and no max_dt bounds the step");
      time_ = seen_.time;  // the device's clock, as far as the host has seen it
    }
    bool changed = false;
    if (builder_) {
      if (rebuild_due(dt)) {
        // The GPU-STL runs on the legacy stream: it reads the particles after the producer's write.
        if (input_.producer) input_.producer->order_after_write(nullptr);
        const auto* particles = input_.buffer ? static_cast<const Particle*>(input_.buffer->cuda_pointer()) : nullptr;
        const uint32_t count = particles ? uint32_t(input_.count) : 0u;
        // The first build waits, once, and sizes the allocation; later ones are queued.
        if (built_) builder_->queue_build(gpu_list_, particles, count);
        else builder_->build(gpu_list_, particles, count);
        time_ += dt;
        built_ = true;
        changed = true;
      }
    } else if (dt > 0.0) {
      apply_brush(next_brush());
      for (int k = 0; k < params_.steps_per_frame; ++k) evolution_->queue_step(gpu_list_);
      changed = params_.steps_per_frame > 0;
    }
    if (changed) {
      gpu_list_.publish();
      host_stale_ = true;
      list_changed();
    }
  }

  std::optional<uint32_t> write_records(SharedBuffer& target, uint32_t capacity, float phi_iso) override {
    write_cube_records(gpu_list_, phi_iso, target.cuda_pointer(), capacity, box().source.c_str());
    timeline_.cuda_signal(++written_, nullptr);
    return std::nullopt;
  }

  std::optional<GpuWait> gpu_wait() const override {
    if (written_ == 0) return std::nullopt;
    return GpuWait{timeline_.handle(), written_};
  }

 private:
  void apply_brush(const std::optional<BrushSpeed>& brush) {
    if (brush == brush_) return;
    brush_ = brush;
    GpuEvolutionParams p = device_params(params_, evolution_params_);
    if (brush) {
      p.brush = *brush;
      p.extend_normal_speed = true;
    }
    evolution_.emplace(p);
  }

  void sync_host_list() override {
    if (!host_stale_) return;
    *list_ = gpu_list_.download();
    host_stale_ = false;
  }

  std::optional<GpuLevelSetEvolution> evolution_;
  std::optional<BrushSpeed> brush_;
  GpuSortedTileList gpu_list_;
  TimelineSemaphore timeline_;
  uint64_t written_ = 0;
  std::unique_ptr<GpuParticleLevelSetBuilder> builder_;
  GpuStlCounters seen_;
  bool host_stale_ = false;
};

}  // namespace

std::unique_ptr<LevelSetStage> make_levelset_cuda(const LevelSetStageParams& params, InitialLevelSet initial,
                                                  const Context& context) {
  return std::make_unique<CudaLevelSetStage>(params, std::move(initial), context);
}

}  // namespace meniscus::sim::levelset
