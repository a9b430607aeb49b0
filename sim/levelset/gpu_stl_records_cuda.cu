// write_cube_records on a GpuSortedTileList (gpu_stl_records.h). Six launches on the default
// stream, none waited for, none needing the list's size on the host:
//   memset         zero counts for the whole allocation (past the list, and the scan's closing zero)
//   find_bounds    one block: the lowest and highest tile coordinates (the record origin, and
//                  whether the band fits 16-bit positions)
//   tile_records   blocks looping over the tiles, counting each tile's records
//   ExclusiveSum   (CUB) each tile's first record, and the total after the last tile
//   tile_records   again, writing the records below capacity at those places
//   write_header   one thread
// Both tile_records passes rebuild the tile's block (125 binary searches, 216 loads) rather than
// keep its 216 codes between them, which would cost as many bytes of scratch per tile written
// and read back. The rules (codes, missing-tile signs, ownership) are cube_record_cells.h,
// shared with the CPU, so the records are the CPU's byte for byte.
#include "sim/levelset/gpu_stl_records.h"

#include <cuda_runtime.h>

#include <cub/cub.cuh>
#include <algorithm>
#include <climits>
#include <cmath>

#include "sim/common/cuda_launch.cuh"
#include "sim/levelset/cube_record_cells.h"
#include "sim/levelset/cube_records.h"
#include "sim/levelset/gpu_stl_storage.cuh"

namespace meniscus::sim::levelset {
namespace {

using gpu::kFullMask;
using gpu::ListView;
using records::kNoTile;

constexpr int kTileBlock = 128;  // one thread per cell (125) and per tile of the 5^3 search
constexpr int kTileWarps = kTileBlock / 32;
constexpr int kBoundsBlock = 256;
constexpr int kBoundsWarps = kBoundsBlock / 32;
// The tiles within two of a block's tile: a missing neighbour's sign looks that far.
constexpr int kSearchSide = 5;
constexpr int kSearchTiles = kSearchSide * kSearchSide * kSearchSide;
static_assert(kSearchTiles <= kTileBlock && records::kCells <= kTileBlock);

// What find_bounds leaves for the later passes, after the per-tile counts and their closing zero.
struct RecordBounds {
  int32_t origin[3];
  uint32_t flags;  // kCubeRecordsTooWide or 0
};

__device__ inline int search_index(int dx, int dy, int dz) {
  return ((dz + 2) * kSearchSide + (dy + 2)) * kSearchSide + (dx + 2);
}

// By negation, so v must not be INT_MIN (its negation overflows): the running maxima start at
// -INT_MAX, below every tile coordinate a key holds.
__device__ inline int warp_max(int v) { return -gpu::warp_min(-v); }

__global__ void __launch_bounds__(kBoundsBlock) find_bounds(ListView view, RecordBounds* bounds) {
  const ListView list = gpu::live(view);
  const TileEntry* active = list.active;
  const uint32_t size = list.size;
  __shared__ int warp_lo[kBoundsWarps][3];
  __shared__ int warp_hi[kBoundsWarps][3];
  int lo[3] = {INT_MAX, INT_MAX, INT_MAX}, hi[3] = {-INT_MAX, -INT_MAX, -INT_MAX};
  for (uint32_t i = threadIdx.x; i < size; i += kBoundsBlock) {
    const TileCoord c = coord_of(active[i].key);
    const int v[3] = {c.x, c.y, c.z};
    for (int axis = 0; axis < 3; ++axis) {
      lo[axis] = min(lo[axis], v[axis]);
      hi[axis] = max(hi[axis], v[axis]);
    }
  }
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  for (int axis = 0; axis < 3; ++axis) {
    lo[axis] = gpu::warp_min(lo[axis]);
    hi[axis] = warp_max(hi[axis]);
    if (lane == 0) {
      warp_lo[warp][axis] = lo[axis];
      warp_hi[warp][axis] = hi[axis];
    }
  }
  __syncthreads();
  if (threadIdx.x != 0) return;
  RecordBounds b{{0, 0, 0}, 0};  // an empty list's origin is 0, as the CPU's
  for (int axis = 0; axis < 3 && size > 0; ++axis) {
    int low = INT_MAX, high = INT_MIN;
    for (int w = 0; w < kBoundsWarps; ++w) {
      low = min(low, warp_lo[w][axis]);
      high = max(high, warp_hi[w][axis]);
    }
    // As the CPU: cells reach one voxel below the lowest tile and start at most at the last
    // voxel of the highest one.
    b.origin[axis] = low * kTileSide - 1;
    if (high * kTileSide + (kTileSide - 1) - b.origin[axis] > int(kMaxRecordCoordinate)) b.flags |= kCubeRecordsTooWide;
  }
  *bounds = b;
}

// make_cube_record's bytes (cube_record.h keeps that one host-only); the records_cuda test
// holds the two byte-equal.
__device__ inline void store_record(CubeRecord* out, int px, int py, int pz, const int8_t codes[8], uint32_t inside) {
  const int position[3] = {px, py, pz};
  for (int axis = 0; axis < 3; ++axis) {
    out->position[2 * axis] = uint8_t(position[axis] & 0xFF);
    out->position[2 * axis + 1] = uint8_t(position[axis] >> 8);
  }
  out->mc_case = uint8_t(inside);
  for (int c = 0; c < 8; ++c) out->corners[c] = codes[c];
}

// One block per tile of the list. kWrite false: counts[tile] = the tile's records. kWrite true:
// its records from offsets[tile] on, those below `capacity`, unless the band is too wide.
template <bool kWrite>
__global__ void __launch_bounds__(kTileBlock) tile_records(ListView view, float iso, uint32_t* counts, const uint32_t* offsets,
                                                           const RecordBounds* bounds, CubeRecord* out, uint32_t capacity) {
  __shared__ uint32_t ids[kSearchTiles];
  __shared__ int8_t missing[27];
  __shared__ int8_t block[records::kBlockVoxels];
  __shared__ uint32_t warp_records[kTileWarps];
  const ListView list = gpu::live(view);
  const int t = threadIdx.x;
  // Blocks loop over the tiles (the count is the device's); each iteration is one tile's.
  for (uint32_t tile = blockIdx.x; tile < list.size; tile += gridDim.x) {
  const TileEntry entry = list.active[tile];
  const TileCoord coord = coord_of(entry.key);
  const float gamma = list.gamma;

  if (t < kSearchTiles) {
    const int dx = t % kSearchSide - 2, dy = t / kSearchSide % kSearchSide - 2, dz = t / (kSearchSide * kSearchSide) - 2;
    uint32_t id = kNoTile;
    const TileCoord n{coord.x + dx, coord.y + dy, coord.z + dz};
    if (dx == 0 && dy == 0 && dz == 0) {
      id = entry.id;
    } else if (representable(n)) {
      const TileKey key = key_of(n);
      const uint32_t at = gpu::lower_bound_key(list.active, list.size, key);
      if (at < list.size && list.active[at].key == key) id = list.active[at].id;
    }
    ids[t] = id;
  }
  __syncthreads();

  if (t < 27) {
    const int dx = t % 3 - 1, dy = t / 3 % 3 - 1, dz = t / 9 - 1;
    if (ids[search_index(dx, dy, dz)] == kNoTile) {
      const bool inside = records::missing_tile_inside(
          dx, dy, dz, [](int x, int y, int z) { return ids[search_index(x, y, z)]; },
          [&list](uint32_t id) { return list.border[id]; });
      missing[t] = records::missing_tile_code(inside, gamma, iso);
    }
  }
  __syncthreads();

  for (int v = t; v < records::kBlockVoxels; v += kTileBlock) {
    const int x = v % records::kBlockSide - 1, y = v / records::kBlockSide % records::kBlockSide - 1,
              z = v / (records::kBlockSide * records::kBlockSide) - 1;
    const int dx = records::tile_offset(x), dy = records::tile_offset(y), dz = records::tile_offset(z);
    const uint32_t id = ids[search_index(dx, dy, dz)];
    block[v] = id == kNoTile ? missing[records::offset_slot(dx, dy, dz)]
                             : quantise_corner(gpu::load_phi(list, size_t(id) * kTileVoxels +
                                                                           gpu::voxel_index(x - dx * kTileSide, y - dy * kTileSide,
                                                                                            z - dz * kTileSide)) - iso,
                                               gamma);
  }
  __syncthreads();

  // Thread t is the cell of (z, y, x) rank t, so ranks within the block are the record order.
  int8_t codes[8];
  uint32_t inside = 0;
  bool record = false;
  constexpr int kSide = records::kCellSide;
  const int x = t % kSide - 1, y = t / kSide % kSide - 1, z = t / (kSide * kSide) - 1;
  if (t < records::kCells) {
    inside = records::cell_codes(block, x, y, z, codes);
    record = records::crossed(inside) &&
             records::owns_cell(x, y, z, [](int dx, int dy, int dz) { return ids[search_index(dx, dy, dz)] != kNoTile; });
  }
  const uint32_t ballot = __ballot_sync(kFullMask, record);
  const int lane = t & 31, warp = t / 32;
  if (lane == 0) warp_records[warp] = __popc(ballot);
  __syncthreads();

  if (!kWrite) {
    if (t == 0) {
      uint32_t sum = 0;
      for (int w = 0; w < kTileWarps; ++w) sum += warp_records[w];
      counts[tile] = sum;
    }
  } else if (record && !bounds->flags) {
    uint32_t rank = offsets[tile] + __popc(ballot & ((1u << lane) - 1u));
    for (int w = 0; w < warp; ++w) rank += warp_records[w];
    if (rank < capacity) {
      const RecordBounds b = *bounds;
      store_record(out + rank, coord.x * kTileSide + x - b.origin[0], coord.y * kTileSide + y - b.origin[1],
                   coord.z * kTileSide + z - b.origin[2], codes, inside);
    }
  }
  __syncthreads();  // before the next tile overwrites the shared arrays
  }
}

__global__ void write_header(CubeRecordHeader* header, const uint32_t* total, const RecordBounds* bounds, uint32_t capacity,
                             float gamma, float iso) {
  CubeRecordHeader h{};
  h.needed = *total;
  h.reserved = bounds->flags;
  h.count = h.reserved ? 0u : min(h.needed, capacity);
  for (int axis = 0; axis < 3; ++axis) h.origin[axis] = bounds->origin[axis];
  h.gamma = gamma;
  h.iso = iso;
  *header = h;
}

}  // namespace

void write_cube_records(GpuSortedTileList& gpu_list, float iso, void* device_buffer, uint32_t capacity, const char* what) {
  GpuStlStorage& s = gpu_list.storage();
  require_iso_in_band(iso, s.gamma, what);
  auto* const header = static_cast<CubeRecordHeader*>(device_buffer);
  auto* const out = reinterpret_cast<CubeRecord*>(static_cast<unsigned char*>(device_buffer) + kCubeRecordsOffset);

  // Tile management's scratch, free between its passes. The list's size is the device's, so
  // the counts cover the allocation: zeros past the list (and one more, so the scan's last
  // output is the total), then the bounds; offsets the scan.
  constexpr size_t kBoundsWords = sizeof(RecordBounds) / sizeof(uint32_t);
  static_assert(sizeof(RecordBounds) % sizeof(uint32_t) == 0);
  const uint32_t n = s.allocated;
  const uint64_t tiles = s.allocated;
  device_reserve(s.counts, size_t(n) + 1 + kBoundsWords, 0, tiles, "cube-record counts");
  device_reserve(s.offsets, size_t(n) + 1, 0, tiles, "cube-record offsets");
  size_t temp_bytes = 0;
  MENISCUS_SIM_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, s.counts.get(), s.offsets.get(), int(n) + 1));
  device_reserve(s.scan_temp, std::max<size_t>(temp_bytes, 1), 0, tiles, "cube-record prefix-sum scratch");
  auto* const bounds = reinterpret_cast<RecordBounds*>(s.counts.get() + n + 1);
  const uint32_t blocks = std::clamp<uint32_t>(n, 1, kMaxStrideBlocks);

  MENISCUS_SIM_CUDA_CHECK(cudaMemsetAsync(s.counts.get(), 0, sizeof(uint32_t) * (size_t(n) + 1)));
  launch<find_bounds>({1, kBoundsBlock}, s.view(), bounds);
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
  launch<tile_records<false>>({blocks, kTileBlock}, s.view(), iso, s.counts.get(), static_cast<const uint32_t*>(nullptr),
                              bounds, out, capacity);
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
  MENISCUS_SIM_CUDA_CHECK(
      cub::DeviceScan::ExclusiveSum(s.scan_temp.get(), temp_bytes, s.counts.get(), s.offsets.get(), int(n) + 1));
  launch<tile_records<true>>({blocks, kTileBlock}, s.view(), iso, s.counts.get(), s.offsets.get(), bounds, out, capacity);
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
  launch<write_header>({1, 1}, header, s.offsets.get() + n, bounds, capacity, s.gamma, iso);
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
}

}  // namespace meniscus::sim::levelset
