#include "sim/reconstruct/free_tiles.h"

#include <algorithm>
#include <cmath>

#include <glm/glm.hpp>

#include "sim/levelset/sorted_tile_list.h"

namespace meniscus::sim::reconstruct {

FreeTiles::FreeTiles(std::span<const glm::vec3> centres, float radius) {
  constexpr int side = levelset::kTileSide;
  for (const glm::vec3& centre : centres) {
    const glm::ivec3 lo = glm::max(glm::ivec3(glm::floor((centre - radius) / float(side))), glm::ivec3(0));
    const glm::ivec3 hi = glm::ivec3(glm::floor((centre + radius) / float(side)));
    for (int z = lo.z; z <= hi.z; ++z)
      for (int y = lo.y; y <= hi.y; ++y)
        for (int x = lo.x; x <= hi.x; ++x) {
          const glm::vec3 first = glm::vec3(x, y, z) * float(side);
          const glm::vec3 nearest = glm::clamp(centre, first, first + float(side - 1));
          const levelset::TileCoord tile{x, y, z};
          if (glm::length(nearest - centre) <= radius && levelset::representable(tile))
            keys_.push_back(levelset::key_of(tile));
        }
  }
  std::sort(keys_.begin(), keys_.end());
  keys_.erase(std::unique(keys_.begin(), keys_.end()), keys_.end());
}

bool FreeTiles::contains(levelset::TileKey key) const { return std::binary_search(keys_.begin(), keys_.end(), key); }

}  // namespace meniscus::sim::reconstruct
