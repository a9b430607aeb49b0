#include "engine/app/level_set_volume.h"

#include <climits>

#include "engine/core/error.h"
#include "sim/levelset/dense_sampling.h"
#include "sim/levelset/tile_key.h"
#include "sim/levelset/vdb_io.h"

namespace meniscus {

sim::Volume level_set_box(const sim::levelset::SortedTileList& list, glm::vec3 voxel_origin, float voxel_size,
                          std::string source, glm::ivec3& min_voxel) {
  if (list.size() == 0) throw InputError(source + ": the level set has no active tiles (no surface)");
  glm::ivec3 lo(INT32_MAX), hi(INT32_MIN);
  for (const sim::levelset::TileEntry& e : list.active()) {
    const sim::levelset::TileCoord c = sim::levelset::coord_of(e.key);
    lo = glm::min(lo, glm::ivec3(c.x, c.y, c.z) * sim::levelset::kTileSide);
    hi = glm::max(hi, glm::ivec3(c.x + 1, c.y + 1, c.z + 1) * sim::levelset::kTileSide);
  }
  lo -= 1;  // one voxel of outside all round closes the surface
  hi += 1;
  sim::Volume volume;
  volume.dims = glm::uvec3(hi - lo);
  volume.spacing = glm::vec3(voxel_size);
  volume.origin = voxel_origin + glm::vec3(lo) * voxel_size;
  volume.source = std::move(source);
  min_voxel = lo;
  return volume;
}

sim::Volume level_set_volume(const sim::levelset::SortedTileList& list, glm::vec3 voxel_origin, float voxel_size,
                             std::string source) {
  glm::ivec3 lo;
  sim::Volume volume = level_set_box(list, voxel_origin, voxel_size, std::move(source), lo);
  sim::levelset::sample_dense(list, lo, glm::ivec3(volume.dims), volume.values);
  for (float& v : volume.values) v = -v;
  return volume;
}

sim::Volume reconstruction_volume(const sim::reconstruct::Reconstruction& r) {
  const int level = r.frame.finest;
  const glm::vec3 voxel_origin(r.frame.world_of(glm::vec3(0.0f), level));
  return level_set_volume(*r.list, voxel_origin, float(r.frame.voxel_size(level)), "reconstructed level set");
}

sim::Volume load_vdb_volume(const std::filesystem::path& file) {
  const sim::levelset::LevelSetFile level_set = sim::levelset::read_vdb(file);
  return level_set_volume(*level_set.list, glm::vec3(level_set.voxel_offset) * level_set.voxel_size,
                          level_set.voxel_size, file.string());
}

}  // namespace meniscus
