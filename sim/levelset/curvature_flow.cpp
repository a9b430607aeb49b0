#include "sim/levelset/curvature_flow.h"

#include "sim/levelset/curvature.h"
#include "sim/levelset/neighbour_tracker.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace meniscus::sim::levelset {
namespace {

constexpr int kBlock = kTileSide + 2;

int block_index(int x, int y, int z) { return (z * kBlock + y) * kBlock + x; }

// The block from a pool reader (SortedTileList::visit_values).
template <class Reader>
void gather_block(const Reader value_at, float gamma, uint32_t id, const uint32_t neighbours[26], float block[216]) {
  const auto value_of = [&](uint32_t tile, int voxel) { return value_at(size_t(tile) * kTileVoxels + voxel); };
  for (int z = -1; z <= kTileSide; ++z)
    for (int y = -1; y <= kTileSide; ++y)
      for (int x = -1; x <= kTileSide; ++x) {
        const int dx = x < 0 ? -1 : x >= kTileSide ? 1 : 0;
        const int dy = y < 0 ? -1 : y >= kTileSide ? 1 : 0;
        const int dz = z < 0 ? -1 : z >= kTileSide ? 1 : 0;
        float value;
        if (!dx && !dy && !dz) {
          value = value_of(id, SortedTileList::voxel_index(x, y, z));
        } else {
          const int d = direction_of(dx, dy, dz);
          const uint32_t n = neighbours[d];
          if (n == UINT32_MAX) {
            // No tile there: beyond the band, ±γ with the sign of this tile's nearest voxel
            // (per voxel, not per border: a border layer can hold both signs).
            const float own = value_of(id, SortedTileList::voxel_index(std::clamp(x, 0, kTileSide - 1),
                                                                       std::clamp(y, 0, kTileSide - 1),
                                                                       std::clamp(z, 0, kTileSide - 1)));
            value = own < 0 ? -gamma : gamma;
          } else {
            value = value_of(n, SortedTileList::voxel_index(x - dx * kTileSide, y - dy * kTileSide, z - dz * kTileSide));
          }
        }
        block[block_index(x + 1, y + 1, z + 1)] = value;
      }
}

}  // namespace

void find_neighbours(const SortedTileList& list, size_t index, uint32_t neighbours[26]) {
  const TileCoord c = coord_of(list.active()[index].key);
  const auto& offsets = neighbour_offsets();
  for (int d = 0; d < 26; ++d) {
    const TileCoord n{c.x + offsets[d].x, c.y + offsets[d].y, c.z + offsets[d].z};
    neighbours[d] = UINT32_MAX;
    if (!representable(n)) continue;
    if (const auto at = list.find(key_of(n))) neighbours[d] = list.active()[*at].id;
  }
}

void gather_block(const SortedTileList& list, uint32_t id, const uint32_t neighbours[26], float block[216]) {
  list.visit_values([&](const auto value_at) { gather_block(value_at, list.gamma(), id, neighbours, block); });
}

float CurvatureFlow::max_time_step() const { return 0.9f / (6.0f * alpha_); }

void CurvatureFlow::step(SortedTileList& list, float dt) {
  const auto& active = list.active();
  next_.resize(active.size() * kTileVoxels);
  const float gamma = list.gamma();
  for_each_tile_with_neighbours(active, 256, [&](size_t i, const uint32_t neighbours[26]) {
    float block[kBlock * kBlock * kBlock];
    gather_block(list, active[i].id, neighbours, block);
    float* out = next_.data() + i * kTileVoxels;
    for (int z = 1; z <= kTileSide; ++z)
      for (int y = 1; y <= kTileSide; ++y)
        for (int x = 1; x <= kTileSide; ++x) {
          const float* centre = block + block_index(x, y, z);
          const float speed = curvature_speed(centre, kBlock, kBlock * kBlock);
          out[SortedTileList::voxel_index(x - 1, y - 1, z - 1)] = std::clamp(centre[0] + dt * alpha_ * speed, -gamma, gamma);
        }
  });
  // Every tile read the old values; now the new ones replace them and the flags follow.
  tbb::parallel_for(tbb::blocked_range<size_t>(0, active.size()), [&](const tbb::blocked_range<size_t>& r) {
    for (size_t i = r.begin(); i != r.end(); ++i) {
      list.write(active[i].id, next_.data() + i * kTileVoxels);
      list.update_flags(active[i].id);
    }
  });
}

}  // namespace meniscus::sim::levelset
