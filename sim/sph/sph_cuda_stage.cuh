#pragma once
// The CUDA SPH stage, split by idea over three files: sph_cuda.cu (lifetime, frames and their
// records, publishing), sph_cuda_substep.cu (sort, neighbours, DFSPH, integration) and
// sph_cuda_sources.cu (emitters and sinks).
//
// Nothing the host needs to decide is read back while stepping: each substep's dt and each
// solve's iteration budget come from the frame's plan (sph_frame_plan.h), the particle count
// lives on the device (emitters append and sinks compact there, and every kernel reads it), the
// neighbour lists have slots for the capacity, and each frame leaves a FrameRecord that is copied
// to page-locked memory behind an event. The host waits once a frame, in step(), for the record
// of the frame kPlanLag back; count() and the measured statistics are that record's.
#include <cuda_runtime.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/interop/timeline.h"
#include "engine/profile/cuda_event_timer.h"
#include "sim/common/cuda_support.cuh"
#include "sim/common/pinned_array.h"
#include "sim/sph/sph_cuda_device.cuh"
#include "sim/sph/sph_frame_plan.h"
#include "sim/sph/sph_ops.h"
#include "sim/sph/sph_setup.h"
#include "sim/sph/sph_stage.h"

#define SPH_CUDA_CHECK(call) MENISCUS_SIM_CUDA_CHECK(call)

namespace meniscus::sim {

class SphCuda : public SphStage {
 public:
  // `context` null: headless (tests, benchmark), publishing to host-visible buffers only.
  SphCuda(const SphParams& params, const Context* context);
  ~SphCuda() override;

  SimBackend backend() const override { return SimBackend::Cuda; }
  // Live particles at the end of the frame kPlanLag before the last step (see synchronize()).
  size_t count() const override { return count_; }
  float particle_radius() const override { return params_.particle_radius; }
  size_t capacity() const override { return setup_.capacity; }
  double time() const override { return time_; }
  const SphStats& stats() const override { return stats_; }
  // The device time of the frame whose record was read last (kPlanLag frames back).
  std::optional<double> device_ms() const override { return last_ms_; }

  void reset() override;
  std::vector<StageControl> controls() override;
  void step(double dt) override;
  void synchronize() override;
  std::vector<Particle> particles() const override;

  // Publishes count() particles: those with an id below it, and, where a sink has emptied
  // slots the renderer still draws (the count it knows is a frame old), copies of live ones.
  void write(SharedBuffer& target) override;
  std::optional<GpuWait> gpu_wait(const SharedBuffer& target) const override;
  void order_after_write(void* cuda_stream) const override;
  std::optional<GpuWait> gpu_done_reading(const SharedBuffer& target) override;

 private:
  using Vec3 = sph::Vec3;
  using FrameRecord = sph::cuda::FrameRecord;

  struct FrameSlot {
    cudaEvent_t recorded = nullptr;  // after the record's copy to the host
    profile::CudaEventTimer timer;
    uint32_t candidates = 0;  // emitter particles offered during the frame: the count's bound
    double end_time = 0.0;
  };
  static constexpr int kSlots = sph::kPlanLag + 1;

  // sph_cuda.cu
  void begin_frame(FrameSlot& slot);
  void end_frame(FrameSlot& slot);
  void read_due_records();
  void show(const FrameRecord& record, double end_time);
  void publish(Particle* out, uint32_t drawn, uint32_t limit);
  sph::cuda::Live live() const { return {&state_.get()->live, bound_}; }
  sph::Arrays arrays();
  template <class T>
  void upload(T* device, const T* host, size_t n) {
    if (n) SPH_CUDA_CHECK(cudaMemcpyAsync(device, host, sizeof(T) * n, cudaMemcpyHostToDevice, stream_));
  }

  // sph_cuda_substep.cu
  void substep(float dt, const sph::FramePlan& plan);
  void* temp(size_t bytes);
  void scan_offsets(uint32_t* counts, uint32_t n);
  void sort_by_cells(const Vec3* x, sph::cuda::Live n, DeviceArray<uint32_t>& cells);
  void sort_particles();
  void find_neighbours();
  template <sph::cuda::Solve kSolve>
  void solve(int budget, float dt);
  void integrate(float dt);
  // Grows every array for `setup`, all or nothing (DeviceMemoryError: nothing changed).
  void reserve_for(const sph::Setup& setup, const sph::EmitterSchedule& emitters);
  size_t scan_storage_bytes(uint32_t most);  // CUB's temporary storage for scans of up to `most`
  void release() noexcept;

  // sph_cuda_sources.cu
  void upload_sources();
  void emit(float dt, bool indexed);
  void remove_in_sinks();

  SphParams params_;   // what the controls change
  SphParams applied_;  // what the arrays are sized for: params_ as of the last reset that fitted
  bool running_ = false;  // a reset has fitted: a later one that does not leaves the stage as it was
  float scene_radius_;
  sph::Setup setup_;
  sph::EmitterSchedule emitters_;
  sph::FramePlanner planner_;
  std::unique_ptr<TimelineSemaphore> timeline_;
  cudaStream_t stream_ = nullptr;

  // What the host knows without asking the device.
  uint32_t bound_ = 0;  // live particles can be at most this many: grids are sized for it
  uint32_t count_ = 0;  // live particles as of the last record read
  uint32_t list_slots_ = 0;
  double time_ = 0.0, pending_ = 0.0;
  SphStats stats_;
  std::optional<double> last_ms_;
  std::string failure_;  // a failed frame's message, thrown by every step() until reset()

  // Frames stepped and read since the reset, their slots and records.
  FrameSlot slots_[kSlots];
  PinnedArray<FrameRecord> records_{kSlots};
  uint64_t issued_ = 0, read_ = 0;
  uint32_t unread_candidates_ = 0;  // emitter particles offered since the frame read last
  sph::FrameOutcome recorded_;      // what the next plan uses until a newer record is due

  DeviceArray<sph::cuda::DeviceState> state_;
  DeviceArray<Vec3> position_, velocity_, previous_velocity_, acceleration_, normal_, vec_scratch_;
  DeviceArray<float> density_, factor_, kappa_, error_, agitation_, float_scratch_;
  DeviceArray<uint32_t> id_, key_, order_, uint_scratch_;
  DeviceArray<uint32_t> fluid_cells_, cursor_, rank_, boundary_cells_;
  DeviceArray<uint32_t> neighbour_begin_, neighbours_, boundary_begin_, boundary_neighbours_;
  DeviceArray<Vec3> neighbour_gradient_, boundary_gradient_;
  DeviceArray<Vec3> boundary_position_;
  DeviceArray<float> boundary_volume_;
  DeviceArray<double> partial_errors_;
  DeviceArray<float> partial_speeds_;
  DeviceArray<unsigned char> temp_;
  DeviceArray<Particle> staging_;  // particles() and host-visible targets

  // Sources: the emitters' layer offsets (all streams, in order) and the sinks' boxes; the
  // compaction's flags, ranks and second copy of each per-particle array.
  std::vector<uint32_t> offset_first_;
  std::vector<sph::EmitterSchedule::Layer> layers_;
  DeviceArray<Vec3> offsets_;
  DeviceArray<SphBox> sinks_;
  DeviceArray<uint32_t> keep_, new_index_, place_, flag_, flag_rank_, hole_;
  DeviceArray<Vec3> sink_position_, sink_velocity_;
  DeviceArray<float> sink_agitation_, sink_density_;
  DeviceArray<uint32_t> sink_id_;

  uint64_t value_ = 0, written_ = 0, reading_ = 0;
};

}  // namespace meniscus::sim
