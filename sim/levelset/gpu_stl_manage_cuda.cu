// GPU-STL tile management (Jalba et al. 2013 §3.3.5): the CPU's manage() in the paper's passes,
// queued without a read-back (the counters stay on the device, gpu_stl_list.h).
//  1. count_tiles: each unit (one warp) walks its part of the dilated active list (Algorithm 2)
//     and counts the tiles it creates, removes and keeps;
//  2. prefix sum (CUB) of the three counts: each unit's offsets into the new list, the stack
//     of ids to pop and the list of freed ids;
//  3. plan_management: one thread totals them into the status, with the pool growth the CPU's
//     allocation would make when the free stack runs out; a growth past the allocation freezes
//     the list instead (the passes below then leave it as it is);
//  4. fill_grown: the grown slots hold +γ with no flags, as the CPU's growth leaves them;
//  5. get_index: each unit's first free-stack position;
//  6. update_tiles: the same walk again writes the new list (already in key order: no sort),
//     initialises created tiles and their flags, and lists the freed ids; push_free then
//     pushes the grown ids nobody took and the freed ids, so no unit pops an id another unit
//     frees in the same pass; commit_management sets the counters.
// Decisions and id allocation are the CPU's, in the CPU's order (see gpu_stl_list.h).
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <string>

#include "sim/common/cuda_launch.cuh"
#include "sim/levelset/gpu_stl_list.h"
#include "sim/levelset/gpu_stl_storage.cuh"

namespace meniscus::sim::levelset {
namespace {

using gpu::kDirections;
using gpu::kFullMask;
using gpu::kNoTile;
using gpu::ListView;

constexpr int kWarp = 32;
constexpr int kManageBlock = 128;  // four units
constexpr int kFillBlock = 256;
constexpr uint32_t kMaxUnits = 16384;
constexpr int kSelfLane = kDirections;  // lane 26 follows the list itself, lanes 0..25 its shifts

// Algorithm 2 for one warp: the dilated list (every active tile and its representable
// neighbours) in key order, restricted to this unit's key range [key of its first tile, key of
// the next unit's first tile). Lane s < 26 follows the active list translated by offset s,
// lane 26 the list itself; the next candidate is the minimum of their heads, and the lanes
// whose head equals it hold exactly the active tiles around it: lane s the tile at
// candidate - offset s (its neighbour in direction 25 - s), lane 26 the candidate itself.
// visit(key, match, id, requested, exists, own) runs on the whole warp with warp-uniform
// key/requested/exists/own; match and id are the lane's.
template <class Visit>
__device__ void walk_dilated(const ListView& list, uint32_t unit, uint32_t units, Visit&& visit) {
  const int lane = threadIdx.x & (kWarp - 1);
  const bool walks = lane <= kSelfLane;
  const TileCoord offset = lane < kDirections ? gpu::direction_offset(lane) : TileCoord{0, 0, 0};
  const uint32_t begin = uint32_t(uint64_t(unit) * list.size / units);
  const uint32_t end = uint32_t(uint64_t(unit + 1) * list.size / units);
  const bool bounded = end < list.size;
  const TileKey hi = bounded ? list.active[end].key : TileKey(0);

  const auto representable_at = [&](uint32_t p) { return representable(gpu::shifted(coord_of(list.active[p].key), offset)); };
  uint32_t ptr = list.size;
  if (walks) {
    ptr = unit == 0 ? 0 : gpu::lower_bound_shifted(list.active, list.size, offset, coord_of(list.active[begin].key));
    while (ptr < list.size && !representable_at(ptr)) ++ptr;
  }
  for (;;) {
    const bool valid = ptr < list.size;
    if (!__any_sync(kFullMask, valid)) break;
    TileKey head = ~TileKey(0);  // above every key but the largest, which a valid lane then holds
    uint32_t id = kNoTile;
    if (valid) {
      const TileEntry e = list.active[ptr];
      head = key_of(gpu::shifted(coord_of(e.key), offset));
      id = e.id;
    }
    const TileKey key = gpu::warp_min(head);
    if (bounded && key >= hi) break;
    const bool match = valid && head == key;
    // The tile at key - offset s asks for this one when its activity bit s points here.
    const bool requests = match && lane < kDirections && ((list.activity[id] >> lane) & 1u);
    const bool requested = __any_sync(kFullMask, requests);
    const bool exists = (__ballot_sync(kFullMask, match) >> kSelfLane) & 1u;
    const uint32_t own = __shfl_sync(kFullMask, id, kSelfLane);
    visit(key, match, id, requested, exists, exists ? own : kNoTile);
    if (match) {
      ++ptr;
      while (ptr < list.size && !representable_at(ptr)) ++ptr;
    }
  }
}

__device__ bool keeps(const ListView& list, bool requested, uint32_t own) {
  return requested || (list.activity[own] & kSelfActive);
}

__global__ void __launch_bounds__(kManageBlock) count_tiles(ListView view, uint32_t units, uint32_t* counts) {
  const uint32_t unit = (blockIdx.x * blockDim.x + threadIdx.x) / kWarp;
  if (unit >= units) return;  // whole warps
  const ListView list = gpu::live(view);
  uint32_t added = 0, removed = 0, kept = 0;
  if (!gpu::frozen(list)) {
    walk_dilated(list, unit, units, [&](TileKey, bool, uint32_t, bool requested, bool exists, uint32_t own) {
      if (exists) {
        if (keeps(list, requested, own)) ++kept;
        else ++removed;
      } else if (requested) {
        ++added;
      }
    });
  }
  if ((threadIdx.x & (kWarp - 1)) == 0) {
    counts[unit] = added;
    counts[units + unit] = removed;
    counts[2 * units + unit] = kept;
  }
}

// Totals, and the growth the CPU's allocate() would make: when the stack runs dry it doubles
// the pool (grow(capacity + 1)), as often as the added tiles need. A growth past the
// allocation freezes the list and says how many slots it needed.
__global__ void plan_management(const uint32_t* counts, const uint32_t* offsets, uint32_t units, uint32_t allocated,
                                GpuStlCounters* counters, ManagePlan* plan) {
  GpuStlCounters& c = *counters;
  ManagePlan p{};
  if (c.frozen != GpuStlFrozen::kNo) {
    *plan = p;
    return;
  }
  const uint32_t last = units - 1;
  TileStatus s;
  s.added = offsets[last] + counts[last];
  s.removed = offsets[units + last] + counts[units + last];
  s.kept = offsets[2 * units + last] + counts[2 * units + last];
  s.grown = 0;
  if (s.added > c.free_count) {
    const uint64_t need = s.added - c.free_count;
    uint64_t grown_to = c.capacity;
    while (grown_to - c.capacity < need) grown_to = 2 * grown_to > grown_to + 1 ? 2 * grown_to : grown_to + 1;
    s.grown = grown_to - c.capacity < UINT32_MAX ? uint32_t(grown_to - c.capacity) : UINT32_MAX;
  }
  const uint64_t capacity_after = uint64_t(c.capacity) + s.grown;
  if (capacity_after > allocated) {
    c.frozen = GpuStlFrozen::kInManage;
    const uint32_t needed = capacity_after < UINT32_MAX ? uint32_t(capacity_after) : UINT32_MAX;  // allocate() refuses
    c.needed = c.needed < needed ? needed : c.needed;
    *plan = p;
    return;
  }
  p.apply = 1;
  p.free_before = c.free_count;
  p.capacity_before = c.capacity;
  p.grown = s.grown;
  p.next_size = s.added + s.kept;
  p.removed = s.removed;
  p.grown_left = s.grown ? s.grown - (s.added - c.free_count) : 0;
  p.free_base = c.free_count - (s.added < c.free_count ? s.added : c.free_count);  // what nobody popped
  c.status = s;
  *plan = p;
}

// The grown slots hold +γ with no flags before any created tile takes one.
__global__ void fill_grown(gpu::ListView list, const ManagePlan* plan) {
  const ManagePlan p = *plan;
  if (!p.apply || !p.grown) return;
  const size_t begin = size_t(p.capacity_before) * kTileVoxels, end = size_t(p.capacity_before + p.grown) * kTileVoxels;
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (size_t i = begin + size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < end; i += stride) {
    gpu::store_phi(list, i, list.gamma);
    if (i % kTileVoxels == 0) list.activity[i / kTileVoxels] = list.border[i / kTileVoxels] = 0;
  }
}

// The k-th tile created (in key order) pops stack position free_before - 1 - k; negative
// positions are the grown slots, capacity_before + (-1 - position).
__global__ void get_index(const uint32_t* added_offsets, uint32_t units, const ManagePlan* plan, long long* stack_index) {
  const uint32_t unit = blockIdx.x * blockDim.x + threadIdx.x;
  if (unit < units && plan->apply) stack_index[unit] = (long long)plan->free_before - 1 - (long long)added_offsets[unit];
}

// A created tile holds ±γ, the sign of the nearest voxel of any existing neighbour (the CPU's
// fill_new_tile: directions in order, the first at the smallest distance wins). Two voxels per
// lane; the flags by warp reduction.
__device__ void fill_new_tile(const ListView& list, uint32_t id, const uint32_t* neighbours, int lane) {
  uint32_t activity = 0, border = 0;
  for (int v = lane; v < kTileVoxels; v += kWarp) {
    const int x = v & 3, y = v >> 2 & 3, z = v >> 4;
    int best_distance = INT32_MAX;
    float sign = 1.0f;
    for (int d = 0; d < kDirections; ++d) {
      if (neighbours[d] == kNoTile) continue;
      const TileCoord o = gpu::direction_offset(d);
      const int lx = x - o.x * kTileSide, ly = y - o.y * kTileSide, lz = z - o.z * kTileSide;
      const int nx = min(max(lx, 0), kTileSide - 1), ny = min(max(ly, 0), kTileSide - 1), nz = min(max(lz, 0), kTileSide - 1);
      const int distance = (lx - nx) * (lx - nx) + (ly - ny) * (ly - ny) + (lz - nz) * (lz - nz);
      if (distance < best_distance) {
        best_distance = distance;
        sign = gpu::load_phi(list, size_t(neighbours[d]) * kTileVoxels + gpu::voxel_index(nx, ny, nz)) < 0 ? -1.0f : 1.0f;
      }
    }
    const float value = gpu::store_phi(list, size_t(id) * kTileVoxels + v, sign * list.gamma);
    const uint2 flags = gpu::voxel_flags(value, list.gamma, v);
    activity |= flags.x;
    border |= flags.y;
  }
  activity = __reduce_or_sync(kFullMask, activity);
  border = __reduce_or_sync(kFullMask, border);
  if (lane == 0) {
    list.activity[id] = activity;
    list.border[id] = border;
  }
}

// Old tiles are only read here (values, activity): created tiles take ids off the free stack
// or from the grown slots, freed ids are only listed, so no unit writes what another reads. A
// frozen list is copied as it is, so that the host's swap of the two lists changes nothing.
__global__ void __launch_bounds__(kManageBlock) update_tiles(ListView view, uint32_t units, const uint32_t* offsets,
                                                              const long long* stack_index, const uint32_t* free_stack,
                                                              const ManagePlan* plan, TileEntry* next, uint32_t* freed) {
  __shared__ uint32_t neighbour_ids[kManageBlock / kWarp][kDirections];
  const uint32_t unit = (blockIdx.x * blockDim.x + threadIdx.x) / kWarp;
  if (unit >= units) return;  // whole warps
  const ListView list = gpu::live(view);
  const int lane = threadIdx.x & (kWarp - 1);
  if (!plan->apply) {
    const uint32_t begin = uint32_t(uint64_t(unit) * list.size / units);
    const uint32_t end = uint32_t(uint64_t(unit + 1) * list.size / units);
    for (uint32_t i = begin + lane; i < end; i += kWarp) next[i] = list.active[i];
    return;
  }
  const uint32_t capacity_before = plan->capacity_before;
  uint32_t* neighbours = neighbour_ids[threadIdx.x / kWarp];
  uint32_t at = offsets[unit] + offsets[2 * units + unit];  // tiles created or kept before this unit
  uint32_t freed_at = offsets[units + unit];
  long long pop = stack_index[unit];
  walk_dilated(list, unit, units, [&](TileKey key, bool match, uint32_t id, bool requested, bool exists, uint32_t own) {
    if (exists) {
      if (keeps(list, requested, own)) {
        if (lane == 0) next[at] = {key, own};
        ++at;
      } else {
        if (lane == 0) freed[freed_at] = own;
        ++freed_at;
      }
      return;
    }
    if (!requested) return;
    const uint32_t fresh = pop >= 0 ? free_stack[pop] : capacity_before + uint32_t(-1 - pop);
    --pop;
    if (lane == 0) next[at] = {key, fresh};
    ++at;
    if (lane < kDirections) neighbours[kDirections - 1 - lane] = match ? id : kNoTile;
    __syncwarp();
    fill_new_tile(list, fresh, neighbours, lane);
    __syncwarp();  // before the next created tile overwrites the neighbours
  });
}

// The stack after the pass: what nobody popped, then (after growth) the grown ids nobody took,
// highest first as the CPU's grow() leaves them, then the freed ids in key order (their flags
// cleared, as the CPU clears them).
__global__ void push_free(uint32_t* stack, const uint32_t* freed, uint32_t* activity, uint32_t* border,
                          const ManagePlan* plan) {
  const ManagePlan p = *plan;
  if (!p.apply) return;
  const uint32_t top = p.capacity_before + p.grown - 1;
  const uint32_t count = p.grown_left + p.removed;
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
    if (i < p.grown_left) {
      stack[p.free_base + i] = top - i;
    } else {
      const uint32_t id = freed[i - p.grown_left];
      stack[p.free_base + i] = id;
      activity[id] = 0;
      border[id] = 0;
    }
  }
}

// The counters after the pass.
__global__ void commit_management(GpuStlCounters* counters, const ManagePlan* plan) {
  const ManagePlan p = *plan;
  if (!p.apply) return;
  GpuStlCounters& c = *counters;
  c.size = p.next_size;
  c.capacity = p.capacity_before + p.grown;
  c.free_count = p.free_base + p.grown_left + p.removed;
}

uint32_t blocks_for_units(uint32_t units) { return (units * kWarp + kManageBlock - 1) / kManageBlock; }

}  // namespace

void GpuSortedTileList::queue_manage() {
  GpuStlStorage& s = *storage_;
  // Units partition the list, whatever its size: a bound is enough, and the allocation is one.
  const uint32_t units = std::min(std::max(s.allocated, 1u), kMaxUnits);
  const uint64_t tiles = s.allocated;
  device_reserve(s.counts, 3 * size_t(units), 0, tiles, "tile-management counts");
  device_reserve(s.offsets, 3 * size_t(units), 0, tiles, "tile-management offsets");
  device_reserve(s.stack_index, units, 0, tiles, "tile-management stack indices");
  size_t temp_bytes = 0;
  MENISCUS_SIM_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, s.counts.get(), s.offsets.get(), int(units)));
  device_reserve(s.scan_temp, std::max<size_t>(temp_bytes, 1), 0, tiles, "prefix-sum scratch");

  launch<count_tiles>({blocks_for_units(units), kManageBlock}, s.view(), units, s.counts.get());
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
  for (int category = 0; category < 3; ++category)
    MENISCUS_SIM_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(s.scan_temp.get(), temp_bytes, s.counts.get() + category * units,
                                                          s.offsets.get() + category * units, int(units)));
  launch<plan_management>({1, 1}, s.counts.get(), s.offsets.get(), units, s.allocated, s.counters.get(), s.plan.get());
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
  launch<fill_grown>({stride_blocks(uint64_t(s.allocated) * kTileVoxels, kFillBlock), kFillBlock}, s.view(), s.plan.get());
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
  launch<get_index>({(units + kManageBlock - 1) / kManageBlock, kManageBlock}, s.offsets.get(), units, s.plan.get(),
                    s.stack_index.get());
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
  launch<update_tiles>({blocks_for_units(units), kManageBlock}, s.view(), units, s.offsets.get(), s.stack_index.get(),
                       s.free_stack.get(), s.plan.get(), s.next_active.get(), s.freed.get());
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
  launch<push_free>({stride_blocks(s.allocated, kFillBlock), kFillBlock}, s.free_stack.get(), s.freed.get(),
                    s.activity.get(), s.border.get(), s.plan.get());
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
  launch<commit_management>({1, 1}, s.counters.get(), s.plan.get());
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
  s.active.swap(s.next_active);  // a frozen list was copied into next_active as it was
}

TileStatus GpuSortedTileList::manage() {
  queue_manage();
  return counters().status;  // resolves a freeze: the allocation grows, the pass runs again
}

}  // namespace meniscus::sim::levelset
