// The tiles a repass of the finest level evolves: those with a voxel within the radius of a
// sample put back, against testing every voxel of the tiles around.
#include <catch2/catch.hpp>

#include <vector>

#include <glm/glm.hpp>

#include "sim/levelset/sorted_tile_list.h"
#include "sim/reconstruct/free_tiles.h"

using namespace meniscus::sim;

TEST_CASE("free tiles: exactly the tiles with a voxel within the radius of a centre", "[reconstruct]") {
  const std::vector<glm::vec3> centres = {{9.3f, 10.7f, 8.1f}, {30.5f, 9.0f, 12.25f}, {1.0f, 1.0f, 1.0f}};
  const float radius = 6.5f;
  const reconstruct::FreeTiles free(centres, radius);
  size_t expected = 0;
  for (int z = 0; z < 12; ++z)
    for (int y = 0; y < 12; ++y)
      for (int x = 0; x < 12; ++x) {
        bool near = false;  // any voxel of the tile within the radius of any centre
        for (int v = 0; v < levelset::kTileVoxels && !near; ++v) {
          const glm::vec3 voxel(x * 4 + v % 4, y * 4 + v / 4 % 4, z * 4 + v / 16);
          for (const glm::vec3& c : centres) near = near || glm::length(voxel - c) <= radius;
        }
        INFO("tile " << x << ", " << y << ", " << z);
        CHECK(free.contains(levelset::key_of({x, y, z})) == near);
        expected += near;
      }
  CHECK(free.size() == expected);  // none beyond the tiles tested, none twice
  CHECK(reconstruct::FreeTiles({}, radius).size() == 0);
}
