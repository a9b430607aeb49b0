#include "sim/levelset/upsample.h"

#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>

#include <algorithm>
#include <cmath>

#include <glm/glm.hpp>

namespace meniscus::sim::levelset {

namespace {

constexpr int kBlock = kTileSide + 1;  // the tile and one voxel beyond on the +x, +y, +z sides

// The coarse tile plus its +x/+y/+z neighbour layers: trilinear interpolation at v/2 reads
// coarse voxels floor(v/2) (always in the tile) and floor(v/2) + 1 (possibly beyond). A voxel
// whose tile is not in the band reads ±γ with the sign of the nearest voxel of this tile, the
// rule the evolution's stencils use too.
void gather(const SortedTileList& list, TileCoord c, uint32_t id, float block[kBlock * kBlock * kBlock]) {
  const float gamma = list.gamma();
  uint32_t neighbour[2][2][2];
  for (int dz = 0; dz < 2; ++dz)
    for (int dy = 0; dy < 2; ++dy)
      for (int dx = 0; dx < 2; ++dx) {
        uint32_t& at = neighbour[dz][dy][dx];
        at = UINT32_MAX;
        if (!(dx | dy | dz)) {
          at = id;
          continue;
        }
        const TileCoord n{c.x + dx, c.y + dy, c.z + dz};
        if (!representable(n)) continue;
        if (const auto position = list.find(key_of(n))) at = list.active()[*position].id;
      }
  for (int z = 0; z < kBlock; ++z)
    for (int y = 0; y < kBlock; ++y)
      for (int x = 0; x < kBlock; ++x) {
        const int tx = x / kTileSide, ty = y / kTileSide, tz = z / kTileSide;
        const uint32_t tile = neighbour[tz][ty][tx];
        float v;
        if (tile != UINT32_MAX) {
          v = list.value(tile, SortedTileList::voxel_index(x % kTileSide, y % kTileSide, z % kTileSide));
        } else {
          const float nearest = list.value(id, SortedTileList::voxel_index(std::min(x, kTileSide - 1),
                                                                           std::min(y, kTileSide - 1),
                                                                           std::min(z, kTileSide - 1)));
          v = std::copysign(gamma, nearest);
        }
        block[(z * kBlock + y) * kBlock + x] = v;
      }
}

}  // namespace

SortedTileList upsample(const SortedTileList& coarse) {
  const auto& active = coarse.active();
  std::vector<TileKey> keys(active.size() * 8);
  for (size_t i = 0; i < active.size(); ++i) {
    const TileCoord c = coord_of(active[i].key);
    for (int b = 0; b < 8; ++b) {
      const TileCoord f{2 * c.x + (b & 1), 2 * c.y + (b >> 1 & 1), 2 * c.z + (b >> 2 & 1)};
      require_representable(f, "upsampled level set");
      keys[i * 8 + b] = key_of(f);
    }
  }
  // The children of consecutive coarse tiles interleave in (z, y, x) order: sort.
  std::vector<TileKey> sorted = keys;
  tbb::parallel_sort(sorted.begin(), sorted.end());
  SortedTileList fine(coarse.gamma(), uint32_t(sorted.size()), coarse.precision());
  fine.insert(sorted, coarse.gamma());
  const float gamma = coarse.gamma();
  tbb::parallel_for(size_t(0), active.size(), [&](size_t i) {
    const TileCoord c = coord_of(active[i].key);
    float block[kBlock * kBlock * kBlock];
    gather(coarse, c, active[i].id, block);
    for (int b = 0; b < 8; ++b) {
      const uint32_t id = fine.active()[*fine.find(keys[i * 8 + b])].id;
      float out[kTileVoxels];
      const glm::ivec3 half(b & 1, b >> 1 & 1, b >> 2 & 1);
      for (int z = 0; z < kTileSide; ++z)
        for (int y = 0; y < kTileSide; ++y)
          for (int x = 0; x < kTileSide; ++x) {
            // Fine voxel 4(2c + half) + (x, y, z) sits at coarse voxel 4c + 2 half + (x, y, z) / 2.
            const glm::ivec3 fine_local = half * kTileSide + glm::ivec3(x, y, z);
            const glm::ivec3 base = fine_local / 2;
            const glm::ivec3 odd = fine_local % 2;
            float sum = 0.0f;
            for (int k = 0; k < 8; ++k) {
              const glm::ivec3 corner(k & 1, k >> 1 & 1, k >> 2 & 1);
              if ((corner.x && !odd.x) || (corner.y && !odd.y) || (corner.z && !odd.z)) continue;
              const glm::ivec3 q = base + corner;
              const float weight = (odd.x ? 0.5f : 1.0f) * (odd.y ? 0.5f : 1.0f) * (odd.z ? 0.5f : 1.0f);
              sum += weight * block[(q.z * kBlock + q.y) * kBlock + q.x];
            }
            out[SortedTileList::voxel_index(x, y, z)] = std::clamp(2.0f * sum, -gamma, gamma);
          }
      fine.write(id, out);
    }
  });
  for (const TileEntry& e : fine.active()) fine.update_flags(e.id);
  return fine;
}

}  // namespace meniscus::sim::levelset
