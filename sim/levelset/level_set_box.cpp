#include "sim/levelset/level_set_box.h"

#include <climits>

#include "engine/core/error.h"
#include "sim/levelset/tile_key.h"

namespace meniscus::sim::levelset {

Volume level_set_box(const SortedTileList& list, glm::vec3 voxel_origin, float voxel_size, std::string source,
                     glm::ivec3& min_voxel) {
  if (list.size() == 0) throw InputError(source + ": the level set has no active tiles (no surface)");
  glm::ivec3 lo(INT32_MAX), hi(INT32_MIN);
  for (const TileEntry& e : list.active()) {
    const TileCoord c = coord_of(e.key);
    lo = glm::min(lo, glm::ivec3(c.x, c.y, c.z) * kTileSide);
    hi = glm::max(hi, glm::ivec3(c.x + 1, c.y + 1, c.z + 1) * kTileSide);
  }
  lo -= 1;  // one voxel of outside all round closes the surface
  hi += 1;
  Volume volume;
  volume.dims = glm::uvec3(hi - lo);
  volume.spacing = glm::vec3(voxel_size);
  volume.origin = voxel_origin + glm::vec3(lo) * voxel_size;
  volume.source = std::move(source);
  min_voxel = lo;
  return volume;
}

}  // namespace meniscus::sim::levelset
