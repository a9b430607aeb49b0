// ParticleLevelSetBuilder: the CPU backend of the particle level set (particle_level_set.h),
// step for step what particle_level_set_cuda.cu does on the GPU-STL, through the same per-voxel
// functions (particle_level_set_math.h) in the same order.
#include "sim/levelset/particle_level_set.h"

#include <tbb/blocked_range.h>
#include <tbb/combinable.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <cmath>

namespace meniscus::sim::levelset {

using particle_grid::GridShape;
using particle_grid::kNone;

namespace {

constexpr size_t kTileGrain = 16;  // tiles per TBB task: a tile's kernel sums are ~10^4 operations

TileCoord dense_coord(const GridShape& g, uint32_t t) {
  const uint32_t row = uint32_t(g.tiles[0]), slab = row * uint32_t(g.tiles[1]);
  return {int32_t(t % row), int32_t(t / row % uint32_t(g.tiles[1])), int32_t(t / slab)};
}

// A tile with a one-voxel halo across its faces, block[face_index(x, y, z)] for x, y, z in
// [-1, 4] (edge and corner entries unused): what the seeds and the sweeps read.
constexpr int kFaceSide = kTileSide + 2;
constexpr int kFaceBlock = kFaceSide * kFaceSide * kFaceSide;
constexpr int face_index(int x, int y, int z) { return ((z + 1) * kFaceSide + (y + 1)) * kFaceSide + (x + 1); }
// The six axis neighbours in seed_distance's order (−x +x −y +y −z +z) as offsets in the block.
constexpr int kAxisStride[6] = {-1, 1, -kFaceSide, kFaceSide, -kFaceSide * kFaceSide, kFaceSide * kFaceSide};

// `faces[k]`: the values of the face neighbour in direction k (kAxisStride's order), or null
// where it reads `missing`.
void gather_faces(const float* own, const float* const faces[6], float missing, float block[kFaceBlock]) {
  for (int v = 0; v < kTileVoxels; ++v) block[face_index(v & 3, v >> 2 & 3, v >> 4)] = own[v];
  const auto at = [&](int k, int x, int y, int z) {
    return faces[k] ? faces[k][SortedTileList::voxel_index(x, y, z)] : missing;
  };
  constexpr int last = kTileSide - 1;
  for (int a = 0; a < kTileSide; ++a)
    for (int b = 0; b < kTileSide; ++b) {
      block[face_index(-1, a, b)] = at(0, last, a, b);
      block[face_index(kTileSide, a, b)] = at(1, 0, a, b);
      block[face_index(a, -1, b)] = at(2, a, last, b);
      block[face_index(a, kTileSide, b)] = at(3, a, 0, b);
      block[face_index(a, b, -1)] = at(4, a, b, last);
      block[face_index(a, b, kTileSide)] = at(5, a, b, 0);
    }
}

// A particle's kernel added to a row of four voxels at x offsets dx[0..3] (one y and z). The
// same sums as particle_grid::accumulate, branch-free: a voxel out of reach adds w = 0, and
// since w (dx, dy, dz) is ±0 then and no sum is ever −0 (a sum starts at +0 and its terms are
// nonzero or +0), adding it changes no bit.
void accumulate_row(float* w, float* sx, float* sy, float* sz, const float dx[kTileSide], float dy, float dz, float dzy2,
                    float inverse_r2) {
  for (int k = 0; k < kTileSide; ++k) {
    const float s2 = (dzy2 + dx[k] * dx[k]) * inverse_r2;
    float t = 1.0f - s2;
    t = s2 < 1.0f ? t : 0.0f;
    const float wk = t * t * t;
    w[k] += wk;
    sx[k] += wk * dx[k];
    sy[k] += wk * dy;
    sz[k] += wk * dz;
  }
}

}  // namespace

ParticleLevelSetBuilder::ParticleLevelSetBuilder(const ParticleLevelSetParams& params)
    : params_(params), shape_(particle_grid_shape(params)),
      smoothing_(to_cpu_params(smoothing_evolution(params))) {}

uint32_t ParticleLevelSetBuilder::slot_at(int x, int y, int z) const {
  if (!particle_grid::inside_tiles(shape_, x, y, z)) return kNone;
  return slot_[particle_grid::dense_index(shape_, x, y, z)];
}

// Step 1: counting sort by cell; the scatter's atomics leave each cell's slice in any order, so
// it is sorted by particle index, as the GPU does (a pure function of the input).
void ParticleLevelSetBuilder::bin(std::span<const Particle> particles, ParticleLevelSetStats& stats) {
  const size_t n = particles.size();
  const uint32_t tiles = particle_grid::tile_count(shape_);
  voxel_position_.resize(n);
  cell_.resize(n);
  cell_begin_.assign(size_t(tiles) + 1, 0);
  tbb::combinable<uint32_t> dropped([] { return 0u; });
  tbb::parallel_for(tbb::blocked_range<size_t>(0, n, 4096), [&](const tbb::blocked_range<size_t>& r) {
    for (size_t i = r.begin(); i < r.end(); ++i) {
      float v[3];
      if (!particle_grid::to_voxels(shape_, particles[i].position, v)) {
        cell_[i] = kNone;
        ++dropped.local();
        continue;
      }
      voxel_position_[i] = glm::vec3(v[0], v[1], v[2]);
      const uint32_t c = particle_grid::dense_index(shape_, particle_grid::cell_of(v[0]), particle_grid::cell_of(v[1]),
                                                    particle_grid::cell_of(v[2]));
      cell_[i] = c;
      std::atomic_ref<uint32_t>(cell_begin_[c]).fetch_add(1, std::memory_order_relaxed);
    }
  });
  stats.dropped = dropped.combine(std::plus<uint32_t>());
  stats.particles = uint32_t(n) - stats.dropped;

  occupied_.clear();
  uint32_t sum = 0;
  for (uint32_t c = 0; c < tiles; ++c) {
    const uint32_t count = cell_begin_[c];
    if (count) occupied_.push_back(c);
    cell_begin_[c] = sum;
    sum += count;
  }
  cell_begin_[tiles] = sum;
  cursor_.assign(cell_begin_.begin(), cell_begin_.end() - 1);
  order_.resize(sum);
  tbb::parallel_for(tbb::blocked_range<size_t>(0, n, 4096), [&](const tbb::blocked_range<size_t>& r) {
    for (size_t i = r.begin(); i < r.end(); ++i)
      if (cell_[i] != kNone)
        order_[std::atomic_ref<uint32_t>(cursor_[cell_[i]]).fetch_add(1, std::memory_order_relaxed)] = uint32_t(i);
  });
  sorted_.resize(sum);
  tbb::parallel_for(tbb::blocked_range<size_t>(0, occupied_.size(), 256), [&](const tbb::blocked_range<size_t>& r) {
    for (size_t k = r.begin(); k < r.end(); ++k) {
      const uint32_t c = occupied_[k];
      std::sort(order_.begin() + cell_begin_[c], order_.begin() + cell_begin_[c + 1]);
      for (uint32_t j = cell_begin_[c]; j < cell_begin_[c + 1]; ++j) sorted_[j] = voxel_position_[order_[j]];
    }
  });
}

// Step 2: per occupied cell, the box of its particles widened by each reach marks tiles (relaxed
// atomic stores of 1: plain stores, since every writer writes the same value).
void ParticleLevelSetBuilder::mark() {
  const uint32_t tiles = particle_grid::tile_count(shape_);
  member_.assign(tiles, 0);
  evaluated_.assign(tiles, 0);
  tbb::parallel_for(tbb::blocked_range<size_t>(0, occupied_.size(), 64), [&](const tbb::blocked_range<size_t>& r) {
    for (size_t k = r.begin(); k < r.end(); ++k) {
      const uint32_t c = occupied_[k];
      glm::vec3 lo = sorted_[cell_begin_[c]], hi = lo;
      for (uint32_t j = cell_begin_[c] + 1; j < cell_begin_[c + 1]; ++j) {
        lo = glm::min(lo, sorted_[j]);
        hi = glm::max(hi, sorted_[j]);
      }
      for (const auto& [reach, marks] :
           {std::pair{shape_.member_reach, &member_}, std::pair{shape_.evaluate_reach, &evaluated_}}) {
        int from[3], to[3];
        for (int a = 0; a < 3; ++a) particle_grid::tiles_within(lo[a], hi[a], reach, shape_.tiles[a], from[a], to[a]);
        for (int z = from[2]; z <= to[2]; ++z)
          for (int y = from[1]; y <= to[1]; ++y)
            for (int x = from[0]; x <= to[0]; ++x)
              std::atomic_ref<uint8_t>((*marks)[particle_grid::dense_index(shape_, x, y, z)])
                  .store(1, std::memory_order_relaxed);
      }
    }
  });
}

// Step 3: φ0 per voxel. Each particle of the cells around the tile adds to the rows of the tile
// its kernel reaches: per voxel, the particles arrive in cell order, as the GPU's per-voxel loop
// takes them, and add the same terms.
void ParticleLevelSetBuilder::evaluate(SortedTileList& list) {
  const auto& active = list.active();
  const GridShape g = shape_;
  phi0_.resize(active.size() * kTileVoxels);
  tbb::parallel_for(tbb::blocked_range<size_t>(0, active.size(), kTileGrain), [&](const tbb::blocked_range<size_t>& range) {
    for (size_t i = range.begin(); i < range.end(); ++i) {
      const TileCoord c = coord_of(active[i].key);
      float* out = phi0_.data() + i * kTileVoxels;
      if (!evaluated_[particle_grid::dense_index(g, c.x, c.y, c.z)]) {
        std::fill(out, out + kTileVoxels, g.outside);
        continue;
      }
      // Σw and Σw (x_i − x) per voxel, as separate arrays so a row of four is one vector.
      alignas(16) float w[kTileVoxels] = {}, sx[kTileVoxels] = {}, sy[kTileVoxels] = {}, sz[kTileVoxels] = {};
      const glm::vec3 base(float(c.x * kTileSide), float(c.y * kTileSide), float(c.z * kTileSide));
      const float inverse_r2 = g.inverse_kernel_radius_squared;
      for (int cz = std::max(c.z - g.cells_below, 0); cz <= std::min(c.z + g.cells_above, g.tiles[2] - 1); ++cz)
        for (int cy = std::max(c.y - g.cells_below, 0); cy <= std::min(c.y + g.cells_above, g.tiles[1] - 1); ++cy)
          for (int cx = std::max(c.x - g.cells_below, 0); cx <= std::min(c.x + g.cells_above, g.tiles[0] - 1); ++cx) {
            const uint32_t cell = particle_grid::dense_index(g, cx, cy, cz);
            for (uint32_t k = cell_begin_[cell]; k < cell_begin_[cell + 1]; ++k) {
              const glm::vec3 p = sorted_[k];
              const float dx[kTileSide] = {p.x - base.x, p.x - (base.x + 1.0f), p.x - (base.x + 2.0f), p.x - (base.x + 3.0f)};
              for (int z = 0; z < kTileSide; ++z) {
                const float dz = p.z - (base.z + float(z));
                const float dz2 = dz * dz;
                // Skipping a plane or a row whose own part of s² reaches 1 is exact: adding the
                // non-negative dx² and scaling by R⁻² cannot round it back below 1.
                if (!(dz2 * inverse_r2 < 1.0f)) continue;
                for (int y = 0; y < kTileSide; ++y) {
                  const float dy = p.y - (base.y + float(y));
                  const float dzy2 = dz2 + dy * dy;
                  if (!(dzy2 * inverse_r2 < 1.0f)) continue;
                  const int row = SortedTileList::voxel_index(0, y, z);
                  accumulate_row(w + row, sx + row, sy + row, sz + row, dx, dy, dz, dzy2, inverse_r2);
                }
              }
            }
          }
      for (int v = 0; v < kTileVoxels; ++v) out[v] = particle_grid::zhu_bridson_phi({w[v], sx[v], sy[v], sz[v]}, g);
    }
  });
}

// The list positions of tile i's six face neighbours (kAxisStride's order); kNone where not
// listed, or (with `near_only`) not swept.
void ParticleLevelSetBuilder::face_neighbours(const SortedTileList& list, size_t i, bool near_only, uint32_t out[6]) const {
  const TileCoord c = coord_of(list.active()[i].key);
  for (int k = 0; k < 6; ++k) {
    const int axis = k / 2, step = k % 2 ? 1 : -1;
    const uint32_t j = slot_at(c.x + (axis == 0 ? step : 0), c.y + (axis == 1 ? step : 0), c.z + (axis == 2 ? step : 0));
    out[k] = j != kNone && near_only && !near_[j] ? kNone : j;
  }
}

// Step 4: seeds at the sign change, Jacobi sweeps near it, band values and flags.
void ParticleLevelSetBuilder::redistance(SortedTileList& list) {
  const auto& active = list.active();
  const size_t n = active.size();
  const GridShape g = shape_;
  seed_.resize(n * kTileVoxels);
  sweep_.resize(n * kTileVoxels);
  interface_.assign(n, 0);
  near_.assign(n, 0);

  tbb::parallel_for(tbb::blocked_range<size_t>(0, n, kTileGrain), [&](const tbb::blocked_range<size_t>& range) {
    float block[kFaceBlock];
    for (size_t i = range.begin(); i < range.end(); ++i) {
      uint32_t faces[6];
      face_neighbours(list, i, false, faces);
      const float* face_values[6];
      for (int k = 0; k < 6; ++k) face_values[k] = faces[k] == kNone ? nullptr : phi0_.data() + faces[k] * kTileVoxels;
      gather_faces(phi0_.data() + i * kTileVoxels, face_values, g.outside, block);
      bool crossed = false;
      for (int v = 0; v < kTileVoxels; ++v) {
        const float* phi = block + face_index(v & 3, v >> 2 & 3, v >> 4);
        const float around[6] = {phi[kAxisStride[0]], phi[kAxisStride[1]], phi[kAxisStride[2]],
                                 phi[kAxisStride[3]], phi[kAxisStride[4]], phi[kAxisStride[5]]};
        const float seed = particle_grid::signed_seed(*phi, particle_grid::seed_distance(*phi, around, g.cap));
        seed_[i * kTileVoxels + v] = seed;
        sweep_[i * kTileVoxels + v] = std::abs(seed);
        crossed = crossed || std::abs(seed) < g.cap;
      }
      interface_[i] = crossed;
    }
  });

  tbb::parallel_for(tbb::blocked_range<size_t>(0, n, 256), [&](const tbb::blocked_range<size_t>& range) {
    for (size_t i = range.begin(); i < range.end(); ++i) {
      const TileCoord c = coord_of(active[i].key);
      const int k = g.near_reach;
      bool near = false;
      for (int dz = -k; dz <= k && !near; ++dz)
        for (int dy = -k; dy <= k && !near; ++dy)
          for (int dx = -k; dx <= k && !near; ++dx) {
            const uint32_t j = slot_at(c.x + dx, c.y + dy, c.z + dz);
            near = j != kNone && interface_[j];
          }
      near_[i] = near;
    }
  });

  // Jacobi sweeps between sweep_ and phi0_ (φ0 is no longer needed): a sweep
  // reads one buffer and writes the other, so its result does not depend on the order of tiles.
  // Tiles not swept hold cap throughout (no seed lies within cap of them).
  for (int s = 0; s < g.sweeps; ++s) {
    const bool from_scratch = s % 2 == 0;
    float* const from = from_scratch ? sweep_.data() : phi0_.data();
    float* const into = from_scratch ? phi0_.data() : sweep_.data();
    const auto source = [&](size_t p) { return from + p * kTileVoxels; };
    tbb::parallel_for(tbb::blocked_range<size_t>(0, n, kTileGrain), [&](const tbb::blocked_range<size_t>& range) {
      float block[kFaceBlock];
      for (size_t i = range.begin(); i < range.end(); ++i) {
        if (!near_[i]) continue;
        uint32_t faces[6];
        face_neighbours(list, i, true, faces);
        const float* face_values[6];
        for (int k = 0; k < 6; ++k) face_values[k] = faces[k] == kNone ? nullptr : source(faces[k]);
        gather_faces(source(i), face_values, g.cap, block);
        float* to = into + i * kTileVoxels;
        for (int v = 0; v < kTileVoxels; ++v) {
          const float* d = block + face_index(v & 3, v >> 2 & 3, v >> 4);
          const float around[6] = {d[kAxisStride[0]], d[kAxisStride[1]], d[kAxisStride[2]],
                                   d[kAxisStride[3]], d[kAxisStride[4]], d[kAxisStride[5]]};
          to[v] = particle_grid::sweep_value(seed_[i * kTileVoxels + v], *d, around, g.cap);
        }
      }
    });
  }

  const float* swept = (g.sweeps % 2 == 1 ? phi0_ : sweep_).data();  // where the last sweep wrote
  tbb::parallel_for(tbb::blocked_range<size_t>(0, n, kTileGrain), [&](const tbb::blocked_range<size_t>& range) {
    for (size_t i = range.begin(); i < range.end(); ++i) {
      float phi[kTileVoxels];
      for (int v = 0; v < kTileVoxels; ++v) {
        const float seed = seed_[i * kTileVoxels + v];
        const float distance = !near_[i] ? std::abs(seed) : swept[i * kTileVoxels + v];
        phi[v] = particle_grid::band_value(seed, distance, g.gamma);
      }
      list.write(active[i].id, phi);
      list.update_flags(active[i].id);
    }
  });
}

ParticleLevelSetStats ParticleLevelSetBuilder::build(SortedTileList& list, std::span<const Particle> particles) {
  ParticleLevelSetStats stats;
  bin(particles, stats);
  mark();

  // The marked tiles in dense order, which is key order: ids 0, 1, ... in that order.
  const uint32_t tiles = particle_grid::tile_count(shape_);
  slot_.resize(tiles);
  std::vector<TileKey> keys;
  for (uint32_t t = 0; t < tiles; ++t) {
    slot_[t] = member_[t] ? uint32_t(keys.size()) : kNone;
    if (member_[t]) keys.push_back(key_of(dense_coord(shape_, t)));
  }
  stats.marked_tiles = uint32_t(keys.size());
  list = SortedTileList(shape_.gamma, stats.marked_tiles, list.precision());
  list.insert(keys, shape_.gamma);

  evaluate(list);
  redistance(list);
  stats.management = list.manage();

  // Tiles manage() created lie beyond the marked ones, where no particle is near: outside.
  const auto& active = list.active();
  tbb::parallel_for(tbb::blocked_range<size_t>(0, active.size(), 256), [&](const tbb::blocked_range<size_t>& range) {
    for (size_t i = range.begin(); i < range.end(); ++i) {
      const TileCoord c = coord_of(active[i].key);
      if (slot_at(c.x, c.y, c.z) != kNone) continue;
      float outside[kTileVoxels];
      std::fill_n(outside, kTileVoxels, shape_.gamma);
      list.write(active[i].id, outside);
      list.update_flags(active[i].id);
    }
  });

  for (int s = 0; s < params_.smoothing_steps; ++s) smoothing_.step(list, 0.0f, 1.0f);
  return stats;
}

}  // namespace meniscus::sim::levelset
