#pragma once
// Device-side pieces shared by the GPU-STL kernels: a view of the list's arrays, the 26
// directions in the CPU's order (tile_key.h), the voxels facing each direction (the CPU's
// update_flags), lexicographic tile order, and warp reductions.
#include <cuda_runtime.h>

#include <cstdint>

#include "sim/levelset/fixed_point_phi.h"
#include "sim/levelset/gpu_stl_list.h"
#include "sim/levelset/sorted_tile_list.h"

namespace meniscus::sim::levelset::gpu {

constexpr uint32_t kFullMask = 0xFFFFFFFFu;
constexpr uint32_t kNoTile = UINT32_MAX;
constexpr int kDirections = 26;

// The arrays of a list as kernels see them; `active` holds `size` entries in key order. The
// host makes views without knowing the size: a kernel takes it from the counters (live()).
struct ListView {
  const TileEntry* active;
  uint32_t size;
  float* values;   // kTileVoxels per pool slot with float storage, else null
  int16_t* fixed;  // the same with 16-bit storage (fixed_point_phi.h), else null
  uint32_t* activity;
  uint32_t* border;
  float gamma;
  GpuStlCounters* counters;
};

__device__ inline ListView live(ListView view) {
  view.size = view.counters->size;
  return view;
}

// φ at pool index i (slot × kTileVoxels + voxel), decoded whatever the storage.
__device__ inline float load_phi(const ListView& list, size_t i) {
  return list.fixed ? decode_fixed_phi(list.fixed[i], list.gamma) : list.values[i];
}

// Stores φ rounded to the storage and returns what a later load_phi reads, from which the
// flags are taken (as the CPU's update_flags reads the stored tile).
__device__ inline float store_phi(const ListView& list, size_t i, float phi) {
  if (!list.fixed) {
    list.values[i] = phi;
    return phi;
  }
  const int16_t code = encode_fixed_phi(phi, list.gamma);
  list.fixed[i] = code;
  return decode_fixed_phi(code, list.gamma);
}

__device__ inline bool frozen(const ListView& view) { return view.counters->frozen != GpuStlFrozen::kNo; }

// neighbour_offsets()[d]: (dx, dy, dz) in {-1, 0, 1}^3 without the centre, z slowest.
__device__ inline TileCoord direction_offset(int d) {
  const int linear = d < 13 ? d : d + 1;  // 13 is the centre
  return {linear % 3 - 1, linear / 3 % 3 - 1, linear / 9 - 1};
}

__device__ inline int direction_of(int dx, int dy, int dz) {
  const int linear = (dz + 1) * 9 + (dy + 1) * 3 + (dx + 1);
  return linear < 13 ? linear : linear - 1;
}

// SortedTileList::voxel_index on the device.
__device__ inline int voxel_index(int x, int y, int z) { return (z * kTileSide + y) * kTileSide + x; }

__device__ inline TileCoord shifted(const TileCoord& c, const TileCoord& o) { return {c.x + o.x, c.y + o.y, c.z + o.z}; }

// Lexicographic (z, y, x) order, also for coordinates outside the key range: a translated
// sorted list stays sorted in this order, so it can be binary searched before filtering.
__device__ inline bool lex_less(const TileCoord& a, const TileCoord& b) {
  if (a.z != b.z) return a.z < b.z;
  if (a.y != b.y) return a.y < b.y;
  return a.x < b.x;
}

// The directions whose facing layer (face, edge or corner) holds voxel (x, y, z).
__device__ inline uint32_t facing_mask(int x, int y, int z) {
  const auto on = [](int offset, int v) { return offset == 0 || (offset < 0 ? v == 0 : v == kTileSide - 1); };
  uint32_t mask = 0;
  for (int d = 0; d < kDirections; ++d) {
    const TileCoord o = direction_offset(d);
    if (on(o.x, x) && on(o.y, y) && on(o.z, z)) mask |= 1u << d;
  }
  return mask;
}

// The CPU's update_flags for one voxel's value: (activity bits, border bits).
__device__ inline uint2 voxel_flags(float value, float gamma, int voxel) {
  const uint32_t facing = facing_mask(voxel & 3, voxel >> 2 & 3, voxel >> 4);
  return make_uint2(fabsf(value) < gamma ? (facing | kSelfActive) : 0u, value < 0 ? facing : 0u);
}

// First position whose key is not below `key`.
__device__ inline uint32_t lower_bound_key(const TileEntry* list, uint32_t n, TileKey key) {
  uint32_t lo = 0, hi = n;
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (list[mid].key < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// First position whose tile, translated by o, is not lexicographically below `target`.
__device__ inline uint32_t lower_bound_shifted(const TileEntry* list, uint32_t n, const TileCoord& o, const TileCoord& target) {
  uint32_t lo = 0, hi = n;
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (lex_less(shifted(coord_of(list[mid].key), o), target)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

template <class T>
__device__ inline T warp_min(T v) {
  for (int step = 16; step > 0; step >>= 1) {
    const T other = __shfl_xor_sync(kFullMask, v, step);
    v = other < v ? other : v;
  }
  return v;
}

// std::max's rule (the first unless the second is larger), as the CPU takes its CFL maximum.
__device__ inline float warp_max(float v) {
  for (int step = 16; step > 0; step >>= 1) {
    const float other = __shfl_xor_sync(kFullMask, v, step);
    v = v < other ? other : v;
  }
  return v;
}

}  // namespace meniscus::sim::levelset::gpu
