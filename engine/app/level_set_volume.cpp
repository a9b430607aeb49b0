#include "engine/app/level_set_volume.h"

#include <climits>

#include "engine/core/error.h"
#include "sim/levelset/dense_sampling.h"
#include "sim/levelset/level_set_box.h"
#include "sim/levelset/tile_key.h"
#include "sim/levelset/vdb_io.h"

namespace meniscus {

sim::Volume level_set_volume(const sim::levelset::SortedTileList& list, glm::vec3 voxel_origin, float voxel_size,
                             std::string source) {
  glm::ivec3 lo;
  sim::Volume volume = sim::levelset::level_set_box(list, voxel_origin, voxel_size, std::move(source), lo);
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
