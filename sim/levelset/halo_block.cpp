#include "sim/levelset/halo_block.h"

#include <algorithm>
#include <array>

#include "sim/levelset/neighbour_tracker.h"

namespace meniscus::sim::levelset {
namespace {

// Direction index (into neighbour_offsets) of offset (dx, dy, dz), each in {-1, 0, 1}.
int direction_of(int dx, int dy, int dz) {
  const int linear = (dz + 1) * 9 + (dy + 1) * 3 + (dx + 1);  // 0..26, 13 is the centre
  return linear < 13 ? linear : linear - 1;
}

// Which tile a local coordinate falls in along one axis: -1, 0 or +1.
int side_of(int v) { return v < 0 ? -1 : v >= kTileSide ? 1 : 0; }

// The block from a pool reader (SortedTileList::visit_values).
template <class Reader>
void gather_halo(const Reader value_at, float gamma, uint32_t id, const uint32_t neighbours[26], float block[kHaloVoxels],
                 int reach) {
  float own[kTileVoxels];
  for (int v = 0; v < kTileVoxels; ++v) own[v] = value_at(size_t(id) * kTileVoxels + v);
  // Row by row; a row crosses at most three tiles along x, copied as runs.
  const int kRunStart[3] = {-reach, 0, kTileSide};
  const int kRunEnd[3] = {0, kTileSide, kTileSide + reach};
  for (int z = -reach; z < kTileSide + reach; ++z)
    for (int y = -reach; y < kTileSide + reach; ++y) {
      const int dy = side_of(y), dz = side_of(z);
      float* row = block + halo_index(0, y, z);
      for (int run = 0; run < 3; ++run) {
        const int dx = run - 1;
        const uint32_t source = (dx || dy || dz) ? neighbours[direction_of(dx, dy, dz)] : id;
        if (source == UINT32_MAX) {
          // Beyond the band: ±γ by the sign of this tile's nearest voxel (per voxel, since a
          // tile's border layer can hold both signs).
          const int cy = std::clamp(y, 0, kTileSide - 1), cz = std::clamp(z, 0, kTileSide - 1);
          for (int x = kRunStart[run]; x < kRunEnd[run]; ++x) {
            const int cx = std::clamp(x, 0, kTileSide - 1);
            row[x] = own[SortedTileList::voxel_index(cx, cy, cz)] < 0 ? -gamma : gamma;
          }
        } else {
          const size_t from = size_t(source) * kTileVoxels +
                              SortedTileList::voxel_index(0, y - dy * kTileSide, z - dz * kTileSide) - dx * kTileSide;
          for (int x = kRunStart[run]; x < kRunEnd[run]; ++x) row[x] = value_at(from + x);
        }
      }
    }
}

}  // namespace

void gather_halo(const SortedTileList& list, uint32_t id, const uint32_t neighbours[26], float block[kHaloVoxels],
                 int reach) {
  list.visit_values([&](const auto value_at) { gather_halo(value_at, list.gamma(), id, neighbours, block, reach); });
}

void for_each_halo_block(const SortedTileList& list, const HaloVisit& visit, int reach) {
  const auto& active = list.active();
  for_each_tile_with_neighbours(active, 128, [&](size_t i, const uint32_t neighbours[26]) {
    alignas(64) float block[kHaloVoxels];
    gather_halo(list, active[i].id, neighbours, block, reach);
    visit(i, active[i].id, block);
  });
}

}  // namespace meniscus::sim::levelset
