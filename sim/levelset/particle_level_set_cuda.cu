// GpuParticleLevelSetBuilder (particle_level_set_gpu.h): the CPU builder's steps as kernels on the
// default stream, writing the GPU-STL's arrays directly. Per voxel the arithmetic is
// particle_level_set_math.h's, in the CPU's order; the only reductions over many threads are
// integer counts and ORs of flags, so nothing depends on the order threads run in. Compiled
// without fused multiply-adds (CMakeLists.txt), as the CPU rounds.
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <string>

#include "sim/common/cuda_launch.cuh"
#include "sim/levelset/gpu_stl_evolution.h"
#include "sim/levelset/gpu_stl_storage.cuh"
#include "sim/levelset/particle_level_set_gpu.h"

namespace meniscus::sim::levelset {

using particle_grid::GridShape;
using particle_grid::kNone;

namespace {

constexpr int kBlock = 256;
constexpr int kWarp = 32;

unsigned blocks_for(size_t threads) { return unsigned((threads + kBlock - 1) / kBlock); }

// What a build counts on the device: the sync build() reads it, a queued one never does.
struct BuildTotals {
  uint32_t marked;   // step 2's tiles
  uint32_t dropped;  // particles outside the grid
  TileStatus management;  // step 5's
};

// The six axis neighbours of a voxel, in seed_distance's order.
__device__ inline void axis_step(int k, int& dx, int& dy, int& dz) {
  const int axis = k >> 1, sign = (k & 1) ? 1 : -1;
  dx = axis == 0 ? sign : 0;
  dy = axis == 1 ? sign : 0;
  dz = axis == 2 ? sign : 0;
}

// The list position of the tile holding voxel (x, y, z) of tile `c` (at position i), each in
// [-1, 4], and the voxel's index there; kNone where that tile is not listed.
__device__ inline uint32_t locate(const GridShape& g, const uint32_t* slot, uint32_t i, TileCoord c, int x, int y, int z,
                                  int& voxel) {
  const int dx = x < 0 ? -1 : x >= kTileSide ? 1 : 0, dy = y < 0 ? -1 : y >= kTileSide ? 1 : 0,
            dz = z < 0 ? -1 : z >= kTileSide ? 1 : 0;
  voxel = gpu::voxel_index(x - dx * kTileSide, y - dy * kTileSide, z - dz * kTileSide);
  if (!dx && !dy && !dz) return i;
  const int tx = c.x + dx, ty = c.y + dy, tz = c.z + dz;
  return particle_grid::inside_tiles(g, tx, ty, tz) ? slot[particle_grid::dense_index(g, tx, ty, tz)] : kNone;
}

// Step 1: voxel-space positions, cells and their counts.
__global__ void bin_particles(GridShape g, const Particle* particles, uint32_t n, float4* voxel, uint32_t* cell,
                              uint32_t* counts, BuildTotals* totals) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v[3];
  if (!particle_grid::to_voxels(g, particles[i].position, v)) {
    cell[i] = kNone;
    atomicAdd(&totals->dropped, 1u);
    return;
  }
  voxel[i] = make_float4(v[0], v[1], v[2], 0.0f);
  const uint32_t c = particle_grid::dense_index(g, particle_grid::cell_of(v[0]), particle_grid::cell_of(v[1]),
                                                particle_grid::cell_of(v[2]));
  cell[i] = c;
  atomicAdd(counts + c, 1u);
}

__global__ void scatter_particles(const uint32_t* cell, uint32_t n, uint32_t* cursor, uint32_t* order) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || cell[i] == kNone) return;
  order[atomicAdd(cursor + cell[i], 1u)] = i;
}

// The scatter left each cell's slice in the order its atomics ran: sorted by particle index, as
// the CPU sorts it, then the positions gathered in that order.
__global__ void sort_cells(const uint32_t* cell_begin, uint32_t cells, uint32_t* order, const float4* voxel, float4* sorted) {
  const uint32_t c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cells) return;
  const uint32_t begin = cell_begin[c], end = cell_begin[c + 1];
  for (uint32_t k = begin + 1; k < end; ++k) {
    const uint32_t value = order[k];
    uint32_t j = k;
    for (; j > begin && order[j - 1] > value; --j) order[j] = order[j - 1];
    order[j] = value;
  }
  for (uint32_t k = begin; k < end; ++k) sorted[k] = voxel[order[k]];
}

// Step 2: every writer stores the same 1, so the marks do not depend on the order of threads.
__global__ void mark_tiles(GridShape g, const uint32_t* cell_begin, const float4* sorted, uint32_t* member,
                           unsigned char* evaluated) {
  const uint32_t c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= particle_grid::tile_count(g)) return;
  const uint32_t begin = cell_begin[c], end = cell_begin[c + 1];
  if (begin == end) return;
  float lo[3] = {sorted[begin].x, sorted[begin].y, sorted[begin].z}, hi[3] = {lo[0], lo[1], lo[2]};
  for (uint32_t k = begin + 1; k < end; ++k) {
    const float p[3] = {sorted[k].x, sorted[k].y, sorted[k].z};
    for (int a = 0; a < 3; ++a) {
      lo[a] = p[a] < lo[a] ? p[a] : lo[a];  // glm::min's rule
      hi[a] = hi[a] < p[a] ? p[a] : hi[a];
    }
  }
  for (int pass = 0; pass < 2; ++pass) {
    const float reach = pass == 0 ? g.member_reach : g.evaluate_reach;
    int from[3], to[3];
    for (int a = 0; a < 3; ++a) particle_grid::tiles_within(lo[a], hi[a], reach, g.tiles[a], from[a], to[a]);
    for (int z = from[2]; z <= to[2]; ++z)
      for (int y = from[1]; y <= to[1]; ++y)
        for (int x = from[0]; x <= to[0]; ++x) {
          const uint32_t t = particle_grid::dense_index(g, x, y, z);
          if (pass == 0) member[t] = 1u;
          else evaluated[t] = 1;
        }
  }
}

// The list in dense (= key) order with ids 0, 1, ...; `slot` becomes the dense map from tile to
// list position (kNone: not listed). Its last entry, the total, was copied out before.
__global__ void list_entries(GridShape g, const uint32_t* member, uint32_t* slot, TileEntry* active,
                             const GpuStlCounters* counters) {
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= particle_grid::tile_count(g) || counters->frozen != GpuStlFrozen::kNo) return;
  if (!member[t]) {
    slot[t] = kNone;
    return;
  }
  const uint32_t row = uint32_t(g.tiles[0]), slab = row * uint32_t(g.tiles[1]);
  const TileCoord c{int32_t(t % row), int32_t(t / row % uint32_t(g.tiles[1])), int32_t(t / slab)};
  active[slot[t]] = {key_of(c), slot[t]};
}

__global__ void empty_pool(gpu::ListView list, uint32_t* free_stack) {
  if (list.counters->frozen != GpuStlFrozen::kNo || list.counters->size != 0) return;
  gpu::store_phi(list, threadIdx.x, list.gamma);
  if (threadIdx.x == 0) {
    list.activity[0] = list.border[0] = 0;
    free_stack[0] = 0;
  }
}

// Step 3: a tile a block, a voxel a thread, the particles of the cells around in the CPU's order.
__global__ void __launch_bounds__(kTileVoxels)
    evaluate_tiles(GridShape g, const TileEntry* active, const unsigned char* evaluated, const uint32_t* cell_begin,
                   const float4* sorted, float* phi0, const GpuStlCounters* counters) {
  if (counters->frozen != GpuStlFrozen::kNo) return;
  const int v = threadIdx.x;
  for (uint32_t i = blockIdx.x; i < counters->size; i += gridDim.x) {
  const TileCoord c = coord_of(active[i].key);
  float* out = phi0 + size_t(i) * kTileVoxels + v;
  if (!evaluated[particle_grid::dense_index(g, c.x, c.y, c.z)]) {
    *out = g.outside;
    continue;
  }
  const int x = c.x * kTileSide + (v & 3), y = c.y * kTileSide + (v >> 2 & 3), z = c.z * kTileSide + (v >> 4);
  const float fx = float(x), fy = float(y), fz = float(z);
  particle_grid::KernelSum sum;
  const int z0 = max(c.z - g.cells_below, 0), z1 = min(c.z + g.cells_above, g.tiles[2] - 1);
  const int y0 = max(c.y - g.cells_below, 0), y1 = min(c.y + g.cells_above, g.tiles[1] - 1);
  const int x0 = max(c.x - g.cells_below, 0), x1 = min(c.x + g.cells_above, g.tiles[0] - 1);
  for (int cz = z0; cz <= z1; ++cz)
    for (int cy = y0; cy <= y1; ++cy)
      for (int cx = x0; cx <= x1; ++cx) {
        const uint32_t cell = particle_grid::dense_index(g, cx, cy, cz);
        const uint32_t end = cell_begin[cell + 1];
        for (uint32_t k = cell_begin[cell]; k < end; ++k) {
          const float4 p = sorted[k];
          const float dz = p.z - fz, dy = p.y - fy;
          const float dzy2 = dz * dz + dy * dy;
          particle_grid::accumulate(sum, p.x - fx, dy, dz, dzy2, g.inverse_kernel_radius_squared);
        }
      }
  *out = particle_grid::zhu_bridson_phi(sum, g);
  }
}

// Whether any thread of the (64-thread) block holds `flag`.
__device__ inline bool block_any(bool flag, bool* warp_flags) {
  const bool warp = __any_sync(gpu::kFullMask, flag);
  if ((threadIdx.x & (kWarp - 1)) == 0) warp_flags[threadIdx.x / kWarp] = warp;
  __syncthreads();
  return warp_flags[0] || warp_flags[1];
}

// Step 4a: the seeds, and which tiles hold one.
__global__ void __launch_bounds__(kTileVoxels) seed_tiles(GridShape g, const TileEntry* active, const uint32_t* slot,
                                                          const float* phi0, float* seed, float* sweep, uint32_t* interface,
                                                          const GpuStlCounters* counters) {
  __shared__ bool warp_flags[kTileVoxels / kWarp];
  if (counters->frozen != GpuStlFrozen::kNo) return;
  const int v = threadIdx.x;
  for (uint32_t i = blockIdx.x; i < counters->size; i += gridDim.x) {
  const TileCoord c = coord_of(active[i].key);
  const float phi = phi0[size_t(i) * kTileVoxels + v];
  float around[6];
  for (int k = 0; k < 6; ++k) {
    int dx, dy, dz, voxel;
    axis_step(k, dx, dy, dz);
    const uint32_t j = locate(g, slot, i, c, (v & 3) + dx, (v >> 2 & 3) + dy, (v >> 4) + dz, voxel);
    around[k] = j == kNone ? g.outside : phi0[size_t(j) * kTileVoxels + voxel];
  }
  const float s = particle_grid::signed_seed(phi, particle_grid::seed_distance(phi, around, g.cap));
  seed[size_t(i) * kTileVoxels + v] = s;
  sweep[size_t(i) * kTileVoxels + v] = fabsf(s);
  const bool crossed = block_any(fabsf(s) < g.cap, warp_flags);
  if (v == 0) interface[i] = crossed;
  __syncthreads();  // before the next tile's flags overwrite these
  }
}

// Step 4b: the tiles within near_reach rings of a seeded tile are swept.
__global__ void mark_near(GridShape g, const TileEntry* active, const GpuStlCounters* counters, const uint32_t* slot,
                          const uint32_t* interface, uint32_t* near) {
  if (counters->frozen != GpuStlFrozen::kNo) return;
  const uint32_t n = counters->size;
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
  const TileCoord c = coord_of(active[i].key);
  const int k = g.near_reach;
  bool found = false;
  for (int dz = -k; dz <= k && !found; ++dz)
    for (int dy = -k; dy <= k && !found; ++dy)
      for (int dx = -k; dx <= k && !found; ++dx) {
        const int x = c.x + dx, y = c.y + dy, z = c.z + dz;
        if (!particle_grid::inside_tiles(g, x, y, z)) continue;
        const uint32_t j = slot[particle_grid::dense_index(g, x, y, z)];
        found = j != kNone && interface[j];
      }
  near[i] = found;
  }
}

// Step 4c: one Jacobi sweep from `from` into `to` over the swept tiles.
__global__ void __launch_bounds__(kTileVoxels)
    sweep_tiles(GridShape g, const TileEntry* active, const uint32_t* slot, const uint32_t* near, const float* seed,
                const float* from, float* to, const GpuStlCounters* counters) {
  if (counters->frozen != GpuStlFrozen::kNo) return;
  const int v = threadIdx.x;
  for (uint32_t i = blockIdx.x; i < counters->size; i += gridDim.x) {
  if (!near[i]) continue;  // the whole block
  const TileCoord c = coord_of(active[i].key);
  float around[6];
  for (int k = 0; k < 6; ++k) {
    int dx, dy, dz, voxel;
    axis_step(k, dx, dy, dz);
    const uint32_t j = locate(g, slot, i, c, (v & 3) + dx, (v >> 2 & 3) + dy, (v >> 4) + dz, voxel);
    around[k] = j == kNone || !near[j] ? g.cap : from[size_t(j) * kTileVoxels + voxel];
  }
  const size_t at = size_t(i) * kTileVoxels + v;
  to[at] = particle_grid::sweep_value(seed[at], from[at], around, g.cap);
  }
}

// Step 4d: band values and the tiles' flags (update_flags: warp ORs, then the two warps).
__global__ void __launch_bounds__(kTileVoxels) finish_tiles(GridShape g, gpu::ListView view, const uint32_t* near,
                                                            const float* seed, const float* swept) {
  __shared__ uint2 warp_flags[kTileVoxels / kWarp];
  if (gpu::frozen(view)) return;
  const gpu::ListView list = gpu::live(view);
  const int v = threadIdx.x;
  for (uint32_t i = blockIdx.x; i < list.size; i += gridDim.x) {
  const size_t at = size_t(i) * kTileVoxels + v;
  const float distance = !near[i] ? fabsf(seed[at]) : swept[at];
  const float phi = gpu::store_phi(list, at, particle_grid::band_value(seed[at], distance, g.gamma));
  uint2 flags = gpu::voxel_flags(phi, g.gamma, v);
  flags.x = __reduce_or_sync(gpu::kFullMask, flags.x);
  flags.y = __reduce_or_sync(gpu::kFullMask, flags.y);
  if ((v & (kWarp - 1)) == 0) warp_flags[v / kWarp] = flags;
  __syncthreads();
  if (v == 0) {
    list.activity[i] = warp_flags[0].x | warp_flags[1].x;
    list.border[i] = warp_flags[0].y | warp_flags[1].y;
  }
  __syncthreads();  // before the next tile's flags overwrite these
  }
}

// Step 5's aftermath: tiles manage() created beyond the marked ones are outside (+γ).
__global__ void __launch_bounds__(kTileVoxels) repair_created(GridShape g, gpu::ListView view, const uint32_t* slot) {
  if (gpu::frozen(view)) return;
  const gpu::ListView list = gpu::live(view);
  for (uint32_t i = blockIdx.x; i < list.size; i += gridDim.x) {
    const TileEntry e = list.active[i];
    const TileCoord c = coord_of(e.key);
    if (particle_grid::inside_tiles(g, c.x, c.y, c.z) && slot[particle_grid::dense_index(g, c.x, c.y, c.z)] != kNone) continue;
    gpu::store_phi(list, size_t(e.id) * kTileVoxels + threadIdx.x, list.gamma);
    if (threadIdx.x == 0) list.activity[e.id] = list.border[e.id] = 0;
  }
}

// Step 2's end: the list becomes the marked tiles (the CPU's SortedTileList(γ, n) then insert():
// ids 0..n-1 in key order, an empty free stack, or with nothing marked one free slot of +γ),
// unless they do not fit the allocation: then the list stays the one before, frozen, and the
// counters say how many slots the build needed.
__global__ void begin_list(const uint32_t* slot_total, uint32_t allocated, GpuStlCounters* counters, BuildTotals* totals) {
  const uint32_t n = *slot_total;
  totals->marked = n;
  GpuStlCounters& c = *counters;
  if (n > allocated) {
    c.frozen = GpuStlFrozen::kInBuild;
    c.needed = c.needed < n ? n : c.needed;
    return;
  }
  c.frozen = GpuStlFrozen::kNo;  // a fresh list, whatever froze the one before
  c.size = n;
  c.capacity = n ? n : 1;
  c.free_count = n ? 0 : 1;
  c.steps = 0;
  c.time = 0;
  c.status = TileStatus{};
}

// Step 5's status, before smoothing steps manage again.
__global__ void record_management(const GpuStlCounters* counters, BuildTotals* totals) {
  if (counters->frozen == GpuStlFrozen::kNo) totals->management = counters->status;
}

template <class T>
void reserve(DeviceArray<T>& array, size_t n, const char* what) {
  try {
    array.reserve(std::max<size_t>(n, 1));
  } catch (const DeviceMemoryError& error) {  // the array kept what it had
    throw DeviceMemoryError(std::string("GPU particle level set: the ") + what + " needs " +
                            std::to_string(n * sizeof(T)) + " bytes of GPU memory that the device cannot give (" +
                            error.what() + ")");
  }
}

template <class In, class Out>
void exclusive_sum(DeviceArray<unsigned char>& temp, In in, Out out, size_t items) {
  size_t bytes = 0;
  MENISCUS_SIM_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, out, (long long)items));
  reserve(temp, bytes, "prefix-sum scratch");
  MENISCUS_SIM_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp.get(), bytes, in, out, (long long)items));
}

}  // namespace

struct GpuParticleLevelSetScratch {
  DeviceArray<float4> voxel, sorted;           // per particle
  DeviceArray<uint32_t> cell, order;           // per particle
  DeviceArray<uint32_t> counts, cell_begin, cursor, member, slot;  // per dense tile (+1)
  DeviceArray<unsigned char> evaluated;        // per dense tile
  DeviceArray<BuildTotals> totals;             // one
  // Per listed voxel: φ0 (beyond the band, so not in the tiles, which may be 16-bit; then the
  // sweeps' second buffer), the seeds, the sweeps' buffer.
  DeviceArray<float> phi0, seed, sweep;
  DeviceArray<uint32_t> interface, near;       // per listed tile
  DeviceArray<unsigned char> scan_temp;
  std::unique_ptr<GpuLevelSetEvolution> smoothing;
};

GpuParticleLevelSetBuilder::GpuParticleLevelSetBuilder(const ParticleLevelSetParams& params)
    : params_(params), shape_(particle_grid_shape(params)), scratch_(std::make_unique<GpuParticleLevelSetScratch>()) {
  std::string why;
  if (!cuda_device_answers(&why)) throw DeviceError("GPU particle level set: " + why);
  scratch_->smoothing = std::make_unique<GpuLevelSetEvolution>(smoothing_evolution(params));
}

GpuParticleLevelSetBuilder::~GpuParticleLevelSetBuilder() = default;

void GpuParticleLevelSetBuilder::queue_build(GpuSortedTileList& list, const Particle* device_particles, uint32_t count) {
  GpuParticleLevelSetScratch& s = *scratch_;
  GpuStlStorage& st = list.storage();
  const GridShape g = shape_;
  const uint32_t tiles = particle_grid::tile_count(g);
  st.gamma = g.gamma;  // kernels take γ by value: what is queued keeps the γ it was queued with

  // Step 1.
  reserve(s.voxel, count, "particle positions");
  reserve(s.sorted, count, "sorted particle positions");
  reserve(s.cell, count, "particle cells");
  reserve(s.order, count, "particle order");
  reserve(s.counts, size_t(tiles) + 1, "cell counts");
  reserve(s.cell_begin, size_t(tiles) + 1, "cell offsets");
  reserve(s.cursor, tiles, "cell cursors");
  reserve(s.member, size_t(tiles) + 1, "tile marks");
  reserve(s.slot, size_t(tiles) + 1, "tile slots");
  reserve(s.evaluated, tiles, "tile marks");
  reserve(s.totals, 1, "totals");
  MENISCUS_SIM_CUDA_CHECK(cudaMemsetAsync(s.counts.get(), 0, sizeof(uint32_t) * (size_t(tiles) + 1)));
  MENISCUS_SIM_CUDA_CHECK(cudaMemsetAsync(s.member.get(), 0, sizeof(uint32_t) * (size_t(tiles) + 1)));
  MENISCUS_SIM_CUDA_CHECK(cudaMemsetAsync(s.evaluated.get(), 0, tiles));
  MENISCUS_SIM_CUDA_CHECK(cudaMemsetAsync(s.totals.get(), 0, sizeof(BuildTotals)));
  if (count) {
    launch<bin_particles>({blocks_for(count), kBlock}, g, device_particles, count, s.voxel.get(), s.cell.get(), s.counts.get(),
                          s.totals.get());
    MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
  }
  exclusive_sum(s.scan_temp, s.counts.get(), s.cell_begin.get(), size_t(tiles) + 1);
  MENISCUS_SIM_CUDA_CHECK(
      cudaMemcpyAsync(s.cursor.get(), s.cell_begin.get(), sizeof(uint32_t) * tiles, cudaMemcpyDeviceToDevice));
  if (count) {
    launch<scatter_particles>({blocks_for(count), kBlock}, s.cell.get(), count, s.cursor.get(), s.order.get());
    MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
  }
  launch<sort_cells>({blocks_for(tiles), kBlock}, s.cell_begin.get(), tiles, s.order.get(), s.voxel.get(), s.sorted.get());
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());

  // Step 2: the marked tiles become the list, on the device (the host never learns how many:
  // the passes below loop over the device's count, their arrays sized by the allocation).
  launch<mark_tiles>({blocks_for(tiles), kBlock}, g, s.cell_begin.get(), s.sorted.get(), s.member.get(), s.evaluated.get());
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
  exclusive_sum(s.scan_temp, s.member.get(), s.slot.get(), size_t(tiles) + 1);
  launch<begin_list>({1, 1}, s.slot.get() + tiles, st.allocated, st.counters.get(), s.totals.get());
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
  GpuStlCounters* const counters = st.counters.get();
  launch<list_entries>({blocks_for(tiles), kBlock}, g, s.member.get(), s.slot.get(), st.active.get(), counters);
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
  launch<empty_pool>({1, kTileVoxels}, st.view(), st.free_stack.get());
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());

  // Steps 3 and 4, a tile a block, blocks looping over the list.
  const uint64_t slots = std::max(st.allocated, 1u);
  const size_t voxels = size_t(slots) * kTileVoxels;
  reserve(s.phi0, voxels, "phi0 values");
  reserve(s.seed, voxels, "seeds");
  reserve(s.sweep, voxels, "sweep buffer");
  reserve(s.interface, slots, "interface flags");
  reserve(s.near, slots, "sweep flags");
  const uint32_t tile_blocks = stride_blocks(slots, 1);
  launch<evaluate_tiles>({tile_blocks, kTileVoxels}, g, st.active.get(), s.evaluated.get(), s.cell_begin.get(),
                         s.sorted.get(), s.phi0.get(), counters);
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
  launch<seed_tiles>({tile_blocks, kTileVoxels}, g, st.active.get(), s.slot.get(), s.phi0.get(), s.seed.get(),
                     s.sweep.get(), s.interface.get(), counters);
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
  launch<mark_near>({stride_blocks(slots, kBlock), kBlock}, g, st.active.get(), counters, s.slot.get(), s.interface.get(),
                    s.near.get());
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
  for (int k = 0; k < g.sweeps; ++k) {
    const bool from_scratch = k % 2 == 0;
    float* from = from_scratch ? s.sweep.get() : s.phi0.get();
    float* to = from_scratch ? s.phi0.get() : s.sweep.get();
    launch<sweep_tiles>({tile_blocks, kTileVoxels}, g, st.active.get(), s.slot.get(), s.near.get(), s.seed.get(), from, to,
                        counters);
    MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
  }
  launch<finish_tiles>({tile_blocks, kTileVoxels}, g, st.view(), s.near.get(), s.seed.get(),
                       (g.sweeps % 2 == 1 ? s.phi0 : s.sweep).get());  // where the last sweep wrote
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());

  // Step 5.
  list.queue_manage();
  launch<record_management>({1, 1}, counters, s.totals.get());
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
  launch<repair_created>({stride_blocks(st.allocated, 1), kTileVoxels}, g, st.view(), s.slot.get());
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());

  // Step 6.
  for (int k = 0; k < params_.smoothing_steps; ++k) s.smoothing->queue_step(list, 1.0f);
}

ParticleLevelSetStats GpuParticleLevelSetBuilder::build(GpuSortedTileList& list, const Particle* device_particles,
                                                        uint32_t count) {
  GpuStlStorage& st = list.storage();
  queue_build(list, device_particles, count);
  // A build that outgrew the allocation (its marked tiles, or its management's growth) runs
  // again from the particles once the allocation has room, so that it is the CPU's.
  for (GpuStlCounters c = st.read_counters(); c.frozen != GpuStlFrozen::kNo; c = st.read_counters()) {
    st.allocate(uint64_t(c.needed) * GpuSortedTileList::kGrowth);
    c.frozen = GpuStlFrozen::kNo;
    c.needed = 0;
    st.write_counters(c);
    queue_build(list, device_particles, count);
  }
  const BuildTotals totals = scratch_->totals.read(0);
  ParticleLevelSetStats stats;
  stats.dropped = totals.dropped;
  stats.particles = count - totals.dropped;
  stats.marked_tiles = totals.marked;
  stats.management = totals.management;
  return stats;
}

}  // namespace meniscus::sim::levelset
