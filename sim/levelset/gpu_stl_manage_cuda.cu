// GPU-STL tile management (Jalba et al. 2013 §3.3.5): the CPU's manage() in the paper's passes.
//  1. count_tiles: each unit (one warp) walks its part of the dilated active list (Algorithm 2)
//     and counts the tiles it creates, removes and keeps;
//  2. prefix sum (CUB) of the three counts: each unit's offsets into the new list, the stack
//     of ids to pop and the list of freed ids;
//  3. stat_cpu: one thread totals them into the 16-byte status, with the pool growth needed
//     when the free stack runs out; the host reads it (with the dt an evolution step left
//     beside it: one wait per step) and grows the pool (reallocation);
//  4. get_index: each unit's first free-stack position;
//  5. update_tiles: the same walk again writes the new list (already in key order: no sort),
//     initialises created tiles and their flags, and lists the freed ids; a last small pass
//     pushes the freed ids, so no unit pops an id another unit frees in the same pass.
// Decisions and id allocation are the CPU's, in the CPU's order (see gpu_stl_list.h).
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <string>

#include "sim/levelset/gpu_stl_list.h"
#include "sim/common/cuda_launch.cuh"
#include "sim/levelset/gpu_stl_storage.cuh"

namespace meniscus::sim::levelset {
namespace {

using gpu::kDirections;
using gpu::kFullMask;
using gpu::kNoTile;
using gpu::ListView;

constexpr int kWarp = 32;
constexpr int kManageBlock = 128;  // four units
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

__global__ void __launch_bounds__(kManageBlock) count_tiles(ListView list, uint32_t units, uint32_t* counts) {
  const uint32_t unit = (blockIdx.x * blockDim.x + threadIdx.x) / kWarp;
  if (unit >= units) return;  // whole warps
  uint32_t added = 0, removed = 0, kept = 0;
  walk_dilated(list, unit, units, [&](TileKey, bool, uint32_t, bool requested, bool exists, uint32_t own) {
    if (exists) {
      if (keeps(list, requested, own)) ++kept;
      else ++removed;
    } else if (requested) {
      ++added;
    }
  });
  if ((threadIdx.x & (kWarp - 1)) == 0) {
    counts[unit] = added;
    counts[units + unit] = removed;
    counts[2 * units + unit] = kept;
  }
}

// Totals, and the growth the CPU's allocate() would make: when the stack runs dry it doubles
// the pool (grow(capacity + 1)), as often as the added tiles need.
__global__ void stat_cpu(const uint32_t* counts, const uint32_t* offsets, uint32_t units, uint32_t free_count,
                         uint32_t capacity, ManageReadback* readback) {
  const uint32_t last = units - 1;
  TileStatus s;
  s.added = offsets[last] + counts[last];
  s.removed = offsets[units + last] + counts[units + last];
  s.kept = offsets[2 * units + last] + counts[2 * units + last];
  s.grown = 0;
  if (s.added > free_count) {
    const uint64_t need = s.added - free_count;
    uint64_t grown_to = capacity;
    while (grown_to - capacity < need) grown_to = 2 * grown_to > grown_to + 1 ? 2 * grown_to : grown_to + 1;
    s.grown = grown_to - capacity < UINT32_MAX ? uint32_t(grown_to - capacity) : UINT32_MAX;  // grow_pool refuses
  }
  readback->status = s;  // dt is left as the evolution step wrote it
}

// The k-th tile created (in key order) pops stack position free_count - 1 - k; negative
// positions are the grown slots, capacity + (-1 - position).
__global__ void get_index(const uint32_t* added_offsets, uint32_t units, uint32_t free_count, long long* stack_index) {
  const uint32_t unit = blockIdx.x * blockDim.x + threadIdx.x;
  if (unit < units) stack_index[unit] = (long long)free_count - 1 - (long long)added_offsets[unit];
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
        sign = list.values[size_t(neighbours[d]) * kTileVoxels + gpu::voxel_index(nx, ny, nz)] < 0 ? -1.0f : 1.0f;
      }
    }
    const float value = sign * list.gamma;
    list.values[size_t(id) * kTileVoxels + v] = value;
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
// or from the grown slots, freed ids are only listed, so no unit writes what another reads.
__global__ void __launch_bounds__(kManageBlock) update_tiles(ListView list, uint32_t units, const uint32_t* offsets,
                                                              const long long* stack_index, const uint32_t* free_stack,
                                                              uint32_t capacity_before, TileEntry* next, uint32_t* freed) {
  __shared__ uint32_t neighbour_ids[kManageBlock / kWarp][kDirections];
  const uint32_t unit = (blockIdx.x * blockDim.x + threadIdx.x) / kWarp;
  if (unit >= units) return;  // whole warps
  const int lane = threadIdx.x & (kWarp - 1);
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

uint32_t blocks_for_units(uint32_t units) { return (units * kWarp + kManageBlock - 1) / kManageBlock; }

}  // namespace

TileStatus GpuSortedTileList::manage() {
  GpuStlStorage& s = *storage_;
  if (s.size == 0) return {};  // nothing dilates an empty list
  const uint32_t units = std::min(s.size, kMaxUnits);
  const uint64_t tiles = s.capacity;
  device_reserve(s.counts, 3 * size_t(units), 0, tiles, "tile-management counts");
  device_reserve(s.offsets, 3 * size_t(units), 0, tiles, "tile-management offsets");
  device_reserve(s.stack_index, units, 0, tiles, "tile-management stack indices");
  device_reserve(s.status, 1, 0, tiles, "tile-management status");
  const ListView list = s.view();

  launch<count_tiles>({blocks_for_units(units), kManageBlock}, list, units, s.counts.get());
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());

  size_t temp_bytes = 0;
  MENISCUS_SIM_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, s.counts.get(), s.offsets.get(), int(units)));
  device_reserve(s.scan_temp, std::max<size_t>(temp_bytes, 1), 0, tiles, "prefix-sum scratch");
  for (int category = 0; category < 3; ++category)
    MENISCUS_SIM_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(s.scan_temp.get(), temp_bytes, s.counts.get() + category * units,
                                                          s.offsets.get() + category * units, int(units)));

  launch<stat_cpu>({1, 1}, s.counts.get(), s.offsets.get(), units, s.free_count, s.capacity, s.status.get());
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
  // The only read-back of the step's management; it carries an evolution step's dt too.
  const ManageReadback readback = s.status.read(0);
  const TileStatus status = readback.status;
  s.last_dt = readback.dt;

  // The scratch first: once the pool has grown, nothing may fail before push_free hands the
  // grown ids to the free stack, or a failed allocation would leave slots that no list holds.
  const uint32_t capacity_before = s.capacity;
  const uint64_t capacity_after = uint64_t(capacity_before) + status.grown;
  const uint32_t next_size = status.added + status.kept;
  device_reserve(s.next_active, std::max<size_t>(next_size, 1), 0, capacity_after, "active list");
  device_reserve(s.freed, std::max<size_t>(status.removed, 1), 0, capacity_after, "freed-id list");
  // Reallocation when the stack ran dry, before any id is handed out.
  if (status.grown) s.grow_pool(capacity_after);

  launch<get_index>({(units + kManageBlock - 1) / kManageBlock, kManageBlock}, s.offsets.get(), units, s.free_count,
                    s.stack_index.get());
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
  // A fresh view: growth reallocated the pool arrays.
  launch<update_tiles>({blocks_for_units(units), kManageBlock}, s.view(), units, s.offsets.get(),
                       s.stack_index.get(), s.free_stack.get(), capacity_before,
                       s.next_active.get(), s.freed.get());
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());

  // The stack after the pass: what nobody popped, then (after growth) the grown ids nobody took,
  // highest first as the CPU's grow() leaves them, then the freed ids in key order.
  const uint32_t popped = std::min(status.added, s.free_count);
  const uint32_t base = s.free_count - popped;
  const uint32_t grown_left = status.grown ? status.grown - (status.added - s.free_count) : 0;
  s.push_free(base, s.capacity - 1, grown_left, status.removed);
  s.free_count = base + grown_left + status.removed;
  s.active.swap(s.next_active);
  s.size = next_size;
  return status;
}

}  // namespace meniscus::sim::levelset
