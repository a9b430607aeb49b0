// The CUDA SPH stage's sources and sinks, on the device: emitters append after the live
// particles, sinks compact them, both with the CPU backend's order (SphCpu::emit_and_remove,
// sph_removal.cpp), and neither tells the host anything until the frame's record.
#include <cub/block/block_scan.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>

#include <algorithm>

#include "sim/common/cuda_launch.cuh"
#include "sim/sph/sph_cuda_stage.cuh"
#include "sim/sph/sph_neighbours.h"

namespace meniscus::sim {

namespace sph::cuda {
namespace {

// One released layer as a kernel argument (no upload, so nothing to wait for before the host
// vector may change): its particles sit at offsets[first, first + count) from the origin.
struct EmitLayer {
  Vec3 origin, velocity;
  uint32_t first, count;
};

constexpr uint32_t kEmitLayers = 16;

struct EmitBatch {
  uint32_t layers, candidates;
  EmitLayer layer[kEmitLayers];
};

// One block walks the batch's candidates in order, 256 at a time: a candidate is blocked when
// fluid is still in the emitter's mouth (checked against the particles this substep's grid
// indexes, as on the CPU, not against candidates placed just before it), and a clear one takes
// the next slot after the live particles, and that slot as its id, unless the capacity is full.
__global__ void emit_layers(EmitBatch batch, const Vec3* offsets, NeighbourQuery q, float clearance_squared,
                            uint32_t capacity, DeviceState* state, Vec3* x, Vec3* v, float* agitation, float* density,
                            uint32_t* id) {
  using Scan = cub::BlockScan<uint32_t, kBlock>;
  __shared__ typename Scan::TempStorage temp;
  __shared__ uint32_t clear_before;  // clear candidates in earlier chunks
  const uint32_t base = state->live;  // every thread reads it before the barrier below
  if (threadIdx.x == 0) clear_before = 0;
  __syncthreads();
  uint32_t layer = 0, layer_first = 0;  // this thread's cursor: candidates before `layer`
  for (uint32_t chunk = 0; chunk < batch.candidates; chunk += kBlock) {
    const uint32_t k = chunk + threadIdx.x;
    uint32_t clear = 0;
    Vec3 p{0, 0, 0};
    if (k < batch.candidates) {
      while (k >= layer_first + batch.layer[layer].count) layer_first += batch.layer[layer++].count;
      p = batch.layer[layer].origin + offsets[batch.layer[layer].first + (k - layer_first)];
      clear = q.fluid_cells && occupied(q, p, clearance_squared) ? 0 : 1;
    }
    uint32_t rank = 0;
    Scan(temp).ExclusiveSum(clear, rank);
    const uint32_t slot = base + clear_before + rank;
    if (clear && slot < capacity) {
      x[slot] = p;
      v[slot] = batch.layer[layer].velocity;
      agitation[slot] = 0.0f;
      density[slot] = 1.0f;
      id[slot] = slot;
    }
    __syncthreads();  // every thread has read clear_before (and the scan's storage)
    if (threadIdx.x == kBlock - 1) clear_before += rank + clear;
    __syncthreads();
  }
  if (threadIdx.x != 0) return;
  const uint32_t room = capacity > base ? capacity - base : 0, placed = min(clear_before, room);
  state->live = base + placed;
  FrameRecord& r = state->record;
  r.emitted += placed;
  r.dropped += clear_before - placed;
  r.blocked += batch.candidates - clear_before;
}

__device__ inline bool in_box(const SphBox& box, Vec3 p) {
  return p.x >= box.min[0] && p.x <= box.max[0] && p.y >= box.min[1] && p.y <= box.max[1] && p.z >= box.min[2] &&
         p.z <= box.max[2];
}

// keep[i] for every entry of the scan (0 past the live particles), and the count that left.
__global__ void sink_mark(const Vec3* x, Live live, uint32_t entries, const SphBox* sinks, uint32_t sink_count,
                          uint32_t* keep, uint32_t* removed) {
  const uint32_t i = thread_index();
  if (i >= entries) return;
  bool stays = false;
  if (i < live.get()) {
    stays = true;
    for (uint32_t s = 0; s < sink_count && stays; ++s) stays = !in_box(sinks[s], x[i]);
    if (!stays) atomicAdd(removed, 1u);
  }
  keep[i] = stays ? 1u : 0u;
}

// Where each id is now (ids are dense below the live count).
__global__ void sink_place(const uint32_t* id, Live live, const uint32_t* removed, uint32_t* place) {
  if (*removed == 0) return;
  const uint32_t i = thread_index();
  if (i < live.get()) place[id[i]] = i;
}

// sph::densify_ids by id: ids below the survivors' count whose particle left (holes) and ids
// at or above it whose particle stays (movers), flagged so one scan ranks both in id order.
__global__ void sink_flags(const uint32_t* place, const uint32_t* keep, Live live, uint32_t entries,
                           const uint32_t* removed, uint32_t* flag) {
  if (*removed == 0) return;
  const uint32_t m = thread_index();
  if (m >= entries) return;
  const uint32_t n = live.get(), alive = n - *removed;
  uint32_t f = 0;
  if (m < n) f = m < alive ? 1u - keep[place[m]] : keep[place[m]];
  flag[m] = f;
}

// The k-th hole by id.
__global__ void sink_holes(const uint32_t* flag, const uint32_t* rank, Live live, const uint32_t* removed,
                           uint32_t* hole) {
  if (*removed == 0) return;
  const uint32_t h = thread_index();
  if (h < live.get() - *removed && flag[h]) hole[rank[h]] = h;
}

struct Particles {
  Vec3 *x, *v;
  float *agitation, *density;
  uint32_t* id;
};

// The stable compaction: each survivor to its rank among survivors, the k-th mover (by id)
// taking the k-th hole's id.
__global__ void sink_scatter(Particles from, Particles to, const uint32_t* keep, const uint32_t* new_index,
                             const uint32_t* rank, const uint32_t* hole, Live live, const uint32_t* removed) {
  if (*removed == 0) return;
  const uint32_t i = thread_index();
  const uint32_t n = live.get(), alive = n - *removed;
  if (i >= n || !keep[i]) return;
  uint32_t id = from.id[i];
  if (id >= alive) id = hole[rank[id] - rank[alive]];
  const uint32_t d = new_index[i];
  to.x[d] = from.x[i];
  to.v[d] = from.v[i];
  to.agitation[d] = from.agitation[i];
  to.density[d] = from.density[i];
  to.id[d] = id;
}

// Back into the stage's arrays (the host cannot swap them: it does not know whether any left).
__global__ void sink_copy_back(Particles from, Particles to, Live live, const uint32_t* removed) {
  if (*removed == 0) return;
  const uint32_t i = thread_index();
  if (i >= live.get() - *removed) return;
  to.x[i] = from.x[i];
  to.v[i] = from.v[i];
  to.agitation[i] = from.agitation[i];
  to.density[i] = from.density[i];
  to.id[i] = from.id[i];
}

__global__ void sink_commit(DeviceState* state) {
  const uint32_t removed = state->removed_now;
  state->live -= removed;
  state->record.removed += removed;
  state->removed_now = 0;
}

}  // namespace
}  // namespace sph::cuda

namespace k = sph::cuda;

void SphCuda::upload_sources() {
  std::vector<Vec3> offsets;
  offset_first_.clear();
  for (uint32_t s = 0; s < emitters_.streams(); ++s) {
    offset_first_.push_back(uint32_t(offsets.size()));
    offsets.insert(offsets.end(), emitters_.offsets(s).begin(), emitters_.offsets(s).end());
  }
  upload(offsets_.get(), offsets.data(), offsets.size());  // reserve_for sized every array
  std::vector<SphBox> boxes;
  for (const SphSink& sink : params_.sinks) boxes.push_back(sink.box);
  upload(sinks_.get(), boxes.data(), boxes.size());
}

// `indexed`: this substep sorted the particles, so its grid may be asked about the emitters'
// mouths (without a sort there were no particles to ask about).
void SphCuda::emit(float dt, bool indexed) {
  layers_.clear();
  emitters_.advance_layers(time_ - dt, dt, layers_);
  const float clearance = sph::kEmitterClearance * params_.diameter();
  const sph::NeighbourQuery query{setup_.grid, rank_.get(), indexed ? fluid_cells_.get() : nullptr, position_.get(),
                                  nullptr,     nullptr,     0.0f};
  FrameSlot& slot = slots_[issued_ % kSlots];
  for (size_t first = 0; first < layers_.size(); first += k::kEmitLayers) {
    k::EmitBatch batch{};
    for (size_t l = first; l < std::min(layers_.size(), first + k::kEmitLayers); ++l) {
      const sph::EmitterSchedule::Layer& layer = layers_[l];
      const uint32_t count = uint32_t(emitters_.offsets(layer.stream).size());
      batch.layer[batch.layers++] = {layer.origin, layer.velocity, offset_first_[layer.stream], count};
      batch.candidates += count;
    }
    if (batch.candidates == 0) continue;
    launch<k::emit_layers>({1, k::kBlock, 0, stream_}, batch, offsets_.get(), query, clearance * clearance,
                           setup_.capacity, state_.get(), position_.get(), velocity_.get(), agitation_.get(),
                           density_.get(), id_.get());
    SPH_CUDA_CHECK(cudaGetLastError());
    bound_ = uint32_t(std::min<uint64_t>(setup_.capacity, uint64_t(bound_) + batch.candidates));
    slot.candidates += batch.candidates;
    unread_candidates_ += batch.candidates;
  }
}

// Mark, rank, relabel, compact: every step after the count returns at once when nothing left.
// The two scans always run (they cost one pass over the bound; skipping them would need the
// count on the host).
void SphCuda::remove_in_sinks() {
  const k::Live n = live();
  const uint32_t entries = bound_ + 1;
  const unsigned grid = k::blocks(bound_), entry_grid = k::blocks(entries);
  const uint32_t* removed = &state_.get()->removed_now;
  launch<k::sink_mark>({entry_grid, k::kBlock, 0, stream_}, position_.get(), n, entries, sinks_.get(),
                       uint32_t(params_.sinks.size()), keep_.get(), &state_.get()->removed_now);
  size_t bytes = 0;
  SPH_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, keep_.get(), new_index_.get(), entries, stream_));
  SPH_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp(bytes), bytes, keep_.get(), new_index_.get(), entries, stream_));
  launch<k::sink_place>({grid, k::kBlock, 0, stream_}, id_.get(), n, removed, place_.get());
  launch<k::sink_flags>({entry_grid, k::kBlock, 0, stream_}, place_.get(), keep_.get(), n, entries, removed,
                        flag_.get());
  SPH_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, flag_.get(), flag_rank_.get(), entries, stream_));
  SPH_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp(bytes), bytes, flag_.get(), flag_rank_.get(), entries, stream_));
  launch<k::sink_holes>({grid, k::kBlock, 0, stream_}, flag_.get(), flag_rank_.get(), n, removed, hole_.get());
  const k::Particles stage{position_.get(), velocity_.get(), agitation_.get(), density_.get(), id_.get()};
  const k::Particles compacted{sink_position_.get(), sink_velocity_.get(), sink_agitation_.get(), sink_density_.get(),
                               sink_id_.get()};
  launch<k::sink_scatter>({grid, k::kBlock, 0, stream_}, stage, compacted, keep_.get(), new_index_.get(),
                          flag_rank_.get(), hole_.get(), n, removed);
  launch<k::sink_copy_back>({grid, k::kBlock, 0, stream_}, compacted, stage, n, removed);
  launch<k::sink_commit>({1, 1, 0, stream_}, state_.get());
  SPH_CUDA_CHECK(cudaGetLastError());
}

}  // namespace meniscus::sim
