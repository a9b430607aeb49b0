// The CUDA SPH stage: its lifetime, its frames and their records, publishing (see
// sph_cuda_stage.cuh for the whole and for what the other two files hold).
#include "sim/sph/sph_cuda.h"

#include <cub/block/block_reduce.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "engine/core/context.h"
#include "engine/core/error.h"
#include "engine/interop/cuda_device.h"
#include "engine/interop/shared_buffer.h"
#include "sim/common/cuda_launch.cuh"
#include "sim/common/simulation_error.h"
#include "sim/sph/sph_cuda_stage.cuh"

namespace meniscus::sim {

namespace sph::cuda {
namespace {

struct MaxOf {
  __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};

__global__ void max_speeds(const Vec3* v, Live live, float* partial_speeds) {
  using Reduce = cub::BlockReduce<float, kBlock>;
  __shared__ typename Reduce::TempStorage temp;
  const uint32_t i = thread_index();
  const float speed = i < live.get() ? length(v[i]) : 0.0f;
  const float most = Reduce(temp).Reduce(speed, MaxOf{});
  if (threadIdx.x == 0) partial_speeds[blockIdx.x] = most;
}

// One block: the frame's end state into its record.
__global__ void finish_frame(const float* partial_speeds, uint32_t partials, DeviceState* state) {
  using Reduce = cub::BlockReduce<float, kBlock>;
  __shared__ typename Reduce::TempStorage temp;
  float most = 0.0f;
  for (uint32_t b = threadIdx.x; b < partials; b += kBlock) most = fmaxf(most, partial_speeds[b]);
  most = Reduce(temp).Reduce(most, MaxOf{});
  if (threadIdx.x != 0) return;
  state->record.max_speed = most;
  state->record.count = state->live;
}

__device__ inline Particle particle(const Vec3* x, const Vec3* v, const float* density, const float* agitation,
                                    uint32_t i, float rest_density) {
  return Particle{{x[i].x, x[i].y, x[i].z}, density[i] * rest_density, {v[i].x, v[i].y, v[i].z}, agitation[i]};
}

// Thread t publishes particle t to its id's place (ids below `limit`, the target's size), and,
// when t is a slot at or past the live count that the renderer still draws (`drawn`, the count
// it knows), fills that slot: a copy of a live particle, or, with none left, a particle at rest
// at `park`, where the last ones drained. Nothing stale or uninitialised is drawn.
__global__ void publish(const Vec3* x, const Vec3* v, const float* density, const float* agitation,
                        const uint32_t* id, Live live, float rest_density, uint32_t drawn, uint32_t limit, Vec3 park,
                        Particle* out) {
  const uint32_t t = thread_index();
  const uint32_t n = live.get();
  if (t < n) {
    if (id[t] < limit) out[id[t]] = particle(x, v, density, agitation, t, rest_density);
  } else if (t < drawn && t < limit) {
    out[t] = n ? particle(x, v, density, agitation, (t - n) % n, rest_density)
               : Particle{{park.x, park.y, park.z}, rest_density, {0, 0, 0}, 0.0f};
  }
}

}  // namespace
}  // namespace sph::cuda

namespace k = sph::cuda;

SphCuda::SphCuda(const SphParams& params, const Context* context)
    : params_(params), applied_(params), scene_radius_(params.particle_radius), setup_(sph::prepare(params)), emitters_(params) {
  if (context) timeline_ = std::make_unique<TimelineSemaphore>(*context, /*cuda_shared=*/true);
  try {
    SPH_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    for (FrameSlot& slot : slots_) SPH_CUDA_CHECK(cudaEventCreate(&slot.recorded));
    reset();
  } catch (...) {
    release();  // no destructor runs for a constructor that throws
    throw;
  }
}

SphCuda::~SphCuda() { release(); }

void SphCuda::release() noexcept {
  // A pending "done reading" wait that the renderer never signals would hang here: asking
  // for gpu_done_reading() is a promise to submit it (see ParticleStage).
  if (stream_) cudaStreamSynchronize(stream_);
  for (FrameSlot& slot : slots_)
    if (slot.recorded) cudaEventDestroy(slot.recorded);
  if (stream_) cudaStreamDestroy(stream_);
  for (FrameSlot& slot : slots_) slot.recorded = nullptr;
  stream_ = nullptr;
}

// Also the constructor's second half: sizes every array for the (possibly new) capacity, once,
// so that nothing is allocated while stepping (cudaFree would wait for the device), and uploads
// the static boundary, the sources and the first particles. When the device cannot hold the new
// capacity (a smaller particle radius asked for more particles), nothing changes: the settings
// go back to those the stage runs with, and it goes on from where it was.
void SphCuda::reset() {
  SPH_CUDA_CHECK(cudaStreamSynchronize(stream_));
  sph::Setup setup{};
  std::optional<sph::EmitterSchedule> emitters;
  try {
    setup = sph::prepare(params_);
    emitters.emplace(params_);
    reserve_for(setup, *emitters);
  } catch (const DeviceMemoryError& error) {
    params_ = sph::settings_without_reset(applied_, params_);
    throw DeviceMemoryError("sph (cuda): room for " + std::to_string(setup.capacity) + " particles: " + error.what() +
                            (running_ ? "; the stage goes on with its previous settings" : ""));
  } catch (...) {
    params_ = sph::settings_without_reset(applied_, params_);
    throw;
  }
  running_ = true;
  applied_ = params_;
  setup_ = std::move(setup);
  emitters_ = std::move(*emitters);
  const uint32_t cells = setup_.grid.cells();
  upload(rank_.get(), setup_.rank.data(), cells);
  upload(boundary_position_.get(), setup_.boundary.position.data(), setup_.boundary.position.size());
  upload(boundary_volume_.get(), setup_.boundary.volume.data(), setup_.boundary.volume.size());
  upload_sources();

  const uint32_t n = uint32_t(setup_.position.size());
  k::DeviceState state{};
  state.live = n;
  state.boundary_count = uint32_t(setup_.boundary.position.size());
  FrameRecord& r = state.record;
  r.count = n;
  r.most_density_iterations = r.most_divergence_iterations = -1;
  r.bad_id = k::kNoParticle;
  r.bad_time_bits = k::kNoTime;
  upload(state_.get(), &state, 1);
  const std::vector<float> zeros(n, 0.0f), ones(n, 1.0f);
  std::vector<uint32_t> ids(n);
  for (uint32_t i = 0; i < n; ++i) ids[i] = i;
  upload(position_.get(), setup_.position.data(), n);
  upload(velocity_.get(), setup_.velocity.data(), n);
  upload(agitation_.get(), zeros.data(), n);
  upload(density_.get(), ones.data(), n);
  upload(id_.get(), ids.data(), n);
  sort_by_cells(boundary_position_.get(), {&state_.get()->boundary_count, state.boundary_count}, boundary_cells_);
  SPH_CUDA_CHECK(cudaStreamSynchronize(stream_));

  bound_ = count_ = n;
  time_ = pending_ = 0.0;
  stats_ = {};
  last_ms_.reset();
  failure_.clear();
  planner_.reset();
  recorded_ = sph::initial_outcome(setup_.velocity);
  issued_ = read_ = 0;
  unread_candidates_ = 0;
}

void SphCuda::reserve_for(const sph::Setup& setup, const sph::EmitterSchedule& emitters) {
  DeviceGrowth growth;
  const uint32_t cap = std::max<uint32_t>(1, setup.capacity), cells = setup.grid.cells();
  for (auto* a : {&position_, &velocity_, &previous_velocity_, &acceleration_, &normal_, &vec_scratch_})
    growth.reserve(*a, cap, "per-particle vectors");
  for (auto* a : {&density_, &factor_, &kappa_, &error_, &agitation_, &float_scratch_})
    growth.reserve(*a, cap, "per-particle scalars");
  for (auto* a : {&id_, &key_, &order_, &uint_scratch_}) growth.reserve(*a, cap, "per-particle ids and keys");
  growth.reserve(neighbour_begin_, size_t(cap) + 1, "neighbour list offsets");
  growth.reserve(boundary_begin_, size_t(cap) + 1, "boundary neighbour list offsets");
  const uint32_t slots = uint32_t(std::min<uint64_t>(uint64_t(cap) * k::kListSlots, UINT32_MAX));
  growth.reserve(neighbours_, slots, "neighbour lists");
  growth.reserve(neighbour_gradient_, slots, "neighbour kernel gradients");
  growth.reserve(boundary_neighbours_, slots, "boundary neighbour lists");
  growth.reserve(boundary_gradient_, slots, "boundary kernel gradients");
  growth.reserve(fluid_cells_, size_t(cells) + 1, "the fluid's cell offsets");
  growth.reserve(cursor_, cells, "cell cursors");
  growth.reserve(rank_, cells, "cell ranks");
  growth.reserve(boundary_cells_, size_t(cells) + 1, "the boundary's cell offsets");
  const size_t samples = std::max<size_t>(1, setup.boundary.position.size());
  growth.reserve(boundary_position_, samples, "boundary samples");
  growth.reserve(boundary_volume_, samples, "boundary sample volumes");
  growth.reserve(partial_errors_, k::blocks(cap), "solver partial errors");
  growth.reserve(partial_speeds_, k::blocks(cap), "partial speeds");
  growth.reserve(staging_, cap, "the particle staging buffer");
  growth.reserve(state_, 1, "the device state");
  growth.reserve(temp_, scan_storage_bytes(std::max(cap, cells) + 1), "scan storage");
  size_t offsets = 0;
  for (uint32_t s = 0; s < emitters.streams(); ++s) offsets += emitters.offsets(s).size();
  growth.reserve(offsets_, std::max<size_t>(1, offsets), "emitter offsets");
  growth.reserve(sinks_, std::max<size_t>(1, params_.sinks.size()), "sink boxes");
  for (auto* a : {&keep_, &new_index_, &flag_, &flag_rank_}) growth.reserve(*a, size_t(cap) + 1, "sink compaction ranks");
  for (auto* a : {&place_, &hole_, &sink_id_}) growth.reserve(*a, cap, "sink compaction places");
  for (auto* a : {&sink_position_, &sink_velocity_}) growth.reserve(*a, cap, "sink compaction vectors");
  for (auto* a : {&sink_agitation_, &sink_density_}) growth.reserve(*a, cap, "sink compaction scalars");
  growth.commit();
  list_slots_ = slots;
}

std::vector<StageControl> SphCuda::controls() { return sph::stage_controls(params_, scene_radius_, emitters_); }

void SphCuda::step(double dt) {
  stats_.substeps = 0;
  sph::refresh_constants(params_, setup_.constants);
  read_due_records();
  const sph::FramePlan plan = planner_.plan(params_, dt, time_, pending_, recorded_, "sph (cuda)");
  FrameSlot& slot = slots_[issued_ % kSlots];
  begin_frame(slot);
  for (const float h : plan.substeps) substep(h, plan);
  end_frame(slot);
}

void SphCuda::begin_frame(FrameSlot& slot) {
  slot.candidates = 0;
  slot.timer.begin(stream_);
  // The frame's most iterations start at -1 ("no solve ran"): two adjacent int32 fields.
  static_assert(offsetof(FrameRecord, most_divergence_iterations) ==
                offsetof(FrameRecord, most_density_iterations) + sizeof(int32_t));
  SPH_CUDA_CHECK(cudaMemsetAsync(&state_.get()->record.most_density_iterations, 0xFF, 2 * sizeof(int32_t), stream_));
}

void SphCuda::end_frame(FrameSlot& slot) {
  const unsigned grid = std::max(1u, k::blocks(bound_));
  launch<k::max_speeds>({grid, k::kBlock, 0, stream_}, velocity_.get(), live(), partial_speeds_.get());
  launch<k::finish_frame>({1, k::kBlock, 0, stream_}, partial_speeds_.get(), grid, state_.get());
  SPH_CUDA_CHECK(cudaGetLastError());
  slot.timer.end(stream_);
  SPH_CUDA_CHECK(cudaMemcpyAsync(&records_[issued_ % kSlots], &state_.get()->record, sizeof(FrameRecord),
                                 cudaMemcpyDeviceToHost, stream_));
  SPH_CUDA_CHECK(cudaEventRecord(slot.recorded, stream_));
  slot.end_time = time_;
  ++issued_;
}

// The record of the frame kPlanLag back, which the next plan needs: normally already there (see
// sph_frame_plan.h), and then read without a wait.
void SphCuda::read_due_records() {
  while (issued_ - read_ >= uint64_t(sph::kPlanLag)) {
    const int s = int(read_ % kSlots);
    FrameSlot& slot = slots_[s];
    if (const cudaError_t state = cudaEventQuery(slot.recorded); state == cudaErrorNotReady)
      SPH_CUDA_CHECK(cudaEventSynchronize(slot.recorded));
    else
      SPH_CUDA_CHECK(state);
    const FrameRecord& r = records_[s];
    unread_candidates_ -= slot.candidates;
    bound_ = uint32_t(std::min<uint64_t>(setup_.capacity, uint64_t(r.count) + unread_candidates_));
    recorded_ = {slot.end_time, r.max_speed, r.most_density_iterations, r.most_divergence_iterations};
    last_ms_ = slot.timer.elapsed_ms();  // its end event precedes the record's
    ++read_;
    show(r, slot.end_time);
  }
  if (!failure_.empty()) throw SimulationError(failure_);
}

void SphCuda::show(const FrameRecord& r, double end_time) {
  count_ = r.count;
  stats_.density_iterations = r.density_iterations;
  stats_.divergence_iterations = r.divergence_iterations;
  stats_.density_error = r.density_error;
  stats_.wall_contacts = r.wall_contacts;
  stats_.emitted = r.emitted;
  stats_.removed = r.removed;
  stats_.dropped = r.dropped;
  stats_.blocked = r.blocked;
  stats_.unconverged = r.unconverged;
  if (!failure_.empty()) return;
  if (r.bad_id != k::kNoParticle)
    failure_ = sph::where("sph (cuda)", k::time_from_bits(r.bad_time_bits)) + "particle " + std::to_string(r.bad_id) +
               " became non-finite (NaN or infinite position or velocity)";
  else if (r.most_neighbours > sph::kMaxNeighbours)
    failure_ = sph::where("sph (cuda)", end_time) + "a particle has " + std::to_string(r.most_neighbours) +
               " neighbours: the fluid collapsed (step too large?)";
  else if (r.overflow)
    failure_ = sph::where("sph (cuda)", end_time) + "more than " + std::to_string(k::kListSlots) +
               " neighbours per particle on average: the fluid collapsed (step too large?)";
}

void SphCuda::synchronize() {
  SPH_CUDA_CHECK(cudaStreamSynchronize(stream_));
  FrameRecord r;
  SPH_CUDA_CHECK(cudaMemcpy(&r, &state_.get()->record, sizeof(r), cudaMemcpyDeviceToHost));
  show(r, time_);
  if (!failure_.empty()) throw SimulationError(failure_);
}

sph::Arrays SphCuda::arrays() {
  sph::Arrays a;
  a.count = bound_;  // the launch bound: kernels read the live count from the device
  a.position = position_.get();
  a.velocity = velocity_.get();
  a.acceleration = acceleration_.get();
  a.normal = normal_.get();
  a.density = density_.get();
  a.factor = factor_.get();
  a.kappa = kappa_.get();
  a.error = error_.get();
  a.neighbour_begin = neighbour_begin_.get();
  a.neighbours = neighbours_.get();
  a.neighbour_gradient = neighbour_gradient_.get();
  a.boundary_begin = boundary_begin_.get();
  a.boundary_neighbours = boundary_neighbours_.get();
  a.boundary_gradient = boundary_gradient_.get();
  a.boundary_position = boundary_position_.get();
  a.boundary_volume = boundary_volume_.get();
  return a;
}

void SphCuda::publish(Particle* out, uint32_t drawn, uint32_t limit) {
  const uint32_t threads = std::max(bound_, drawn);
  if (threads == 0) return;
  const SphBox& box = params_.sinks.empty() ? params_.domain : params_.sinks.front().box;
  const Vec3 park{0.5f * (box.min[0] + box.max[0]), 0.5f * (box.min[1] + box.max[1]), 0.5f * (box.min[2] + box.max[2])};
  launch<k::publish>({k::blocks(threads), k::kBlock, 0, stream_}, position_.get(), velocity_.get(), density_.get(),
                     agitation_.get(), id_.get(), live(), params_.rest_density, drawn, limit, park, out);
  SPH_CUDA_CHECK(cudaGetLastError());
}

void SphCuda::write(SharedBuffer& target) {
  if (target.size() < count_ * sizeof(Particle)) throw DeviceError("sph (cuda): shared buffer too small");
  if (target.kind() == SharedMemory::Host) {  // headless, or a renderer without CUDA interop
    if (!target.host_pointer()) throw DeviceError("sph (cuda): shared buffer is neither CUDA-shared nor host-visible");
    // The host reads it next: this path waits for the device by nature.
    publish(staging_.get(), count_, uint32_t(std::max<size_t>(1, setup_.capacity)));
    SPH_CUDA_CHECK(cudaMemcpyAsync(target.host_pointer(), staging_.get(), sizeof(Particle) * count_,
                                   cudaMemcpyDeviceToHost, stream_));
    SPH_CUDA_CHECK(cudaStreamSynchronize(stream_));
    return;
  }
  if (!timeline_) throw DeviceError("sph (cuda): a CUDA-shared target needs the stage made with a Vulkan context");
  if (reading_ != 0) timeline_->cuda_wait(reading_, stream_);
  reading_ = 0;
  const size_t slots = std::min<size_t>(target.size() / sizeof(Particle), setup_.capacity);
  publish(static_cast<Particle*>(target.cuda_pointer()), count_, uint32_t(slots));
  // "written" and "done reading" alternate on one timeline, each signalled only after the
  // one before it was waited for, so values stay increasing.
  timeline_->cuda_signal(++value_, stream_);
  written_ = value_;
}

void SphCuda::order_after_write(void* cuda_stream) const {
  if (written_ != 0) timeline_->cuda_wait(written_, cuda_stream);
}

std::optional<GpuWait> SphCuda::gpu_wait(const SharedBuffer& target) const {
  if (written_ == 0 || target.kind() != SharedMemory::Cuda) return std::nullopt;
  return GpuWait{timeline_->handle(), written_};
}

std::optional<GpuWait> SphCuda::gpu_done_reading(const SharedBuffer& target) {
  if (written_ == 0 || target.kind() != SharedMemory::Cuda) return std::nullopt;
  if (reading_ == 0) reading_ = ++value_;
  return GpuWait{timeline_->handle(), reading_};
}

std::vector<Particle> SphCuda::particles() const {
  auto* self = const_cast<SphCuda*>(this);
  SPH_CUDA_CHECK(cudaStreamSynchronize(stream_));
  uint32_t live = 0;
  SPH_CUDA_CHECK(cudaMemcpy(&live, &state_.get()->live, sizeof(live), cudaMemcpyDeviceToHost));
  self->publish(staging_.get(), 0, live);
  std::vector<Particle> host(live);
  SPH_CUDA_CHECK(cudaMemcpyAsync(host.data(), staging_.get(), sizeof(Particle) * live, cudaMemcpyDeviceToHost, stream_));
  SPH_CUDA_CHECK(cudaStreamSynchronize(stream_));
  return host;
}

std::unique_ptr<SphStage> make_sph_cuda(const SphParams& params, const Context& context) {
  params.validate();
  std::string why;
  const std::optional<int> device = find_cuda_device(context.info(), &why);
  if (!device) throw DeviceError("sph (cuda): " + why);
  SPH_CUDA_CHECK(cudaSetDevice(*device));
  return std::make_unique<SphCuda>(params, &context);
}

std::unique_ptr<SphStage> make_sph_cuda_headless(const SphParams& params) {
  params.validate();
  std::string why;
  if (!cuda_device_answers(&why)) throw DeviceError("sph (cuda): " + why);
  SPH_CUDA_CHECK(cudaSetDevice(0));
  return std::make_unique<SphCuda>(params, nullptr);
}

}  // namespace meniscus::sim
