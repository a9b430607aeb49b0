#include "sim/levelset/dense_sampling.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <deque>

#include "sim/levelset/tile_key.h"

namespace meniscus::sim::levelset {
namespace {

int floor_div4(int v) { return floor_div(v, kTileSide); }

}  // namespace

void sample_dense(const SortedTileList& list, glm::ivec3 min_voxel, glm::ivec3 dims, std::vector<float>& out) {
  const float gamma = list.gamma();
  // Tiles covering the grid, one more ring so the outside is connected all around.
  const glm::ivec3 tile_lo(floor_div4(min_voxel.x) - 1, floor_div4(min_voxel.y) - 1, floor_div4(min_voxel.z) - 1);
  const glm::ivec3 max_voxel = min_voxel + dims - 1;
  const glm::ivec3 tile_hi(floor_div4(max_voxel.x) + 1, floor_div4(max_voxel.y) + 1, floor_div4(max_voxel.z) + 1);
  const glm::ivec3 tiles = tile_hi - tile_lo + 1;
  auto tile_index = [&](glm::ivec3 t) { return (size_t(t.z) * tiles.y + t.y) * tiles.x + t.x; };
  // -2: active (holds values); 0: empty, not reached; 1: outside. Empty and unreached = inside.
  std::vector<int8_t> state(size_t(tiles.x) * tiles.y * tiles.z, 0);
  std::vector<uint32_t> id_of(state.size(), UINT32_MAX);
  for (const TileEntry& e : list.active()) {
    const TileCoord c = coord_of(e.key);
    const glm::ivec3 t = glm::ivec3(c.x, c.y, c.z) - tile_lo;
    if (glm::any(glm::lessThan(t, glm::ivec3(0))) || glm::any(glm::greaterThanEqual(t, tiles))) continue;
    state[tile_index(t)] = -2;
    id_of[tile_index(t)] = e.id;
  }
  std::deque<glm::ivec3> queue{glm::ivec3(0)};  // the outer ring's corner is outside
  state[0] = 1;
  const glm::ivec3 steps[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  while (!queue.empty()) {
    const glm::ivec3 t = queue.front();
    queue.pop_front();
    for (const glm::ivec3& s : steps) {
      const glm::ivec3 n = t + s;
      if (glm::any(glm::lessThan(n, glm::ivec3(0))) || glm::any(glm::greaterThanEqual(n, tiles))) continue;
      int8_t& st = state[tile_index(n)];
      if (st != 0) continue;
      st = 1;
      queue.push_back(n);
    }
  }
  out.resize(size_t(dims.x) * dims.y * dims.z);
  tbb::parallel_for(0, dims.z, [&](int z) {
    for (int y = 0; y < dims.y; ++y)
      for (int x = 0; x < dims.x; ++x) {
        const glm::ivec3 v = min_voxel + glm::ivec3(x, y, z);
        const glm::ivec3 t(floor_div4(v.x), floor_div4(v.y), floor_div4(v.z));
        const size_t ti = tile_index(t - tile_lo);
        float value;
        if (state[ti] == -2) {
          const glm::ivec3 local = v - t * kTileSide;
          value = list.value(id_of[ti], SortedTileList::voxel_index(local.x, local.y, local.z));
        } else {
          value = state[ti] == 1 ? gamma : -gamma;
        }
        out[(size_t(z) * dims.y + y) * dims.x + x] = value;
      }
  });
}

}  // namespace meniscus::sim::levelset
