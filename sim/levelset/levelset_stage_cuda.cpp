// The level-set stage on CUDA: the GPU-STL evolved on the device (gpu_stl_evolution.h), or
// rebuilt there from a CUDA particle stage's published buffer (particle_level_set_gpu.h); its
// cube records written on the device into the frame's shared buffer (gpu_stl_records.h), the
// submission ordered after them by a timeline semaphore. The list reaches the host only when
// records() asks (an export), never in a frame.
#include <optional>

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
        evolution_(device_params(params, evolution_params_)),
        gpu_list_(*list_),
        timeline_(context, /*cuda_shared=*/true) {
    if (params.particles) builder_ = std::make_unique<GpuParticleLevelSetBuilder>(particle_level_set_params(params));
  }

  SimBackend backend() const override { return SimBackend::Cuda; }
  size_t tiles() const override { return gpu_list_.size(); }

  void step(double dt) override {
    int steps = 0;
    if (builder_) {
      if (rebuild_due(dt)) {
        // The GPU-STL runs on the legacy stream: it reads the particles after the producer's write.
        if (input_.producer) input_.producer->order_after_write(nullptr);
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
    if (steps > 0) {
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
  void sync_host_list() override {
    if (!host_stale_) return;
    *list_ = gpu_list_.download();
    host_stale_ = false;
  }

  GpuLevelSetEvolution evolution_;
  GpuSortedTileList gpu_list_;
  TimelineSemaphore timeline_;
  uint64_t written_ = 0;
  std::unique_ptr<GpuParticleLevelSetBuilder> builder_;
  bool host_stale_ = false;
};

}  // namespace

std::unique_ptr<LevelSetStage> make_levelset_cuda(const LevelSetStageParams& params, InitialLevelSet initial,
                                                  const Context& context) {
  return std::make_unique<CudaLevelSetStage>(params, std::move(initial), context);
}

}  // namespace meniscus::sim::levelset
