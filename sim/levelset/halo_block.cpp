#include "sim/levelset/halo_block.h"

#include <algorithm>
#include <array>
#include <cassert>

#include "sim/levelset/neighbour_tracker.h"

namespace meniscus::sim::levelset {
namespace {

// The block from a pool reader (SortedTileList::visit_values), one source tile at a time: the
// tile itself and each neighbour a stencil reads fill a box of the block, copied as rows of 1
// to 4 voxels, so which tile a row comes from is worked out once per box, not per short run.
template <class Reader>
void gather_halo(const Reader value_at, float gamma, uint32_t id, const uint32_t neighbours[26], float block[kHaloVoxels],
                 int reach) {
  float own[kTileVoxels];
  for (int v = 0; v < kTileVoxels; ++v) own[v] = value_at(size_t(id) * kTileVoxels + v);
  // The block's span along an axis on side -1, 0 or +1 of the tile.
  const int begin[3] = {-reach, 0, kTileSide}, end[3] = {0, kTileSide, kTileSide + reach};
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int offsets = (dx != 0) + (dy != 0) + (dz != 0);
        if (offsets == 3) continue;  // corners: no stencil reads them
        const bool centre = offsets == 0;
        const uint32_t source = centre ? id : neighbours[direction_of(dx, dy, dz)];
        // An edge neighbour is read one voxel deep only (mixed differences).
        const auto span = [&](int d, int& from, int& to) {
          from = begin[d + 1];
          to = end[d + 1];
          if (offsets == 2 && d < 0) from = -1;
          if (offsets == 2 && d > 0) to = kTileSide + 1;
        };
        int x0, x1, y0, y1, z0, z1;
        span(dx, x0, x1);
        span(dy, y0, y1);
        span(dz, z0, z1);
        for (int z = z0; z < z1; ++z)
          for (int y = y0; y < y1; ++y) {
            float* row = block + halo_index(0, y, z);
            if (source == UINT32_MAX) {
              // Beyond the band: ±γ by the sign of this tile's nearest voxel (per voxel, since
              // a tile's border layer can hold both signs).
              const int cy = std::clamp(y, 0, kTileSide - 1), cz = std::clamp(z, 0, kTileSide - 1);
              for (int x = x0; x < x1; ++x) {
                const int cx = std::clamp(x, 0, kTileSide - 1);
                row[x] = own[SortedTileList::voxel_index(cx, cy, cz)] < 0 ? -gamma : gamma;
              }
            } else if (centre) {
              const float* from = own + SortedTileList::voxel_index(0, y, z);
              for (int x = 0; x < kTileSide; ++x) row[x] = from[x];
            } else {
              const size_t from = size_t(source) * kTileVoxels +
                                  SortedTileList::voxel_index(0, y - dy * kTileSide, z - dz * kTileSide) - dx * kTileSide;
              for (int x = x0; x < x1; ++x) row[x] = value_at(from + x);
            }
          }
      }
}

}  // namespace

void gather_halo(const SortedTileList& list, uint32_t id, const uint32_t neighbours[26], float block[kHaloVoxels],
                 int reach) {
  assert(reach >= 1 && reach <= kHalo);  // beyond kHalo the rows would run past the block
  list.visit_values([&](const auto value_at) { gather_halo(value_at, list.gamma(), id, neighbours, block, reach); });
}

void for_each_halo_block(const SortedTileList& list, const HaloVisit& visit, int reach,
                         const std::function<bool(TileKey)>& only) {
  const auto& active = list.active();
  for_each_tile_with_neighbours(active, 128, [&](size_t i, const uint32_t neighbours[26]) {
    if (only && !only(active[i].key)) return;
    alignas(64) float block[kHaloVoxels];
    gather_halo(list, active[i].id, neighbours, block, reach);
    visit(i, active[i].id, block);
  });
}

}  // namespace meniscus::sim::levelset
