#include "engine/app/reconstruction_volume.h"

#include <climits>

#include "sim/levelset/dense_sampling.h"
#include "sim/levelset/tile_key.h"

namespace meniscus {

sim::Volume reconstruction_volume(const sim::reconstruct::Reconstruction& r) {
  const int level = r.frame.finest;
  glm::ivec3 lo(INT32_MAX), hi(INT32_MIN);
  for (const sim::levelset::TileEntry& e : r.list->active()) {
    const sim::levelset::TileCoord c = sim::levelset::coord_of(e.key);
    lo = glm::min(lo, glm::ivec3(c.x, c.y, c.z) * sim::levelset::kTileSide);
    hi = glm::max(hi, glm::ivec3(c.x + 1, c.y + 1, c.z + 1) * sim::levelset::kTileSide);
  }
  lo -= 1;  // one voxel of outside all round closes the surface
  hi += 1;
  sim::Volume volume;
  volume.dims = glm::uvec3(hi - lo);
  volume.spacing = glm::vec3(float(r.frame.voxel_size(level)));
  volume.origin = glm::vec3(r.frame.world_of(glm::vec3(lo), level));
  volume.source = "reconstructed level set";
  sim::levelset::sample_dense(*r.list, lo, hi - lo, volume.values);
  for (float& v : volume.values) v = -v;
  return volume;
}

}  // namespace meniscus
