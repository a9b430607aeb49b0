#include "sim/reconstruct/held_samples.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include <glm/glm.hpp>

#include "sim/levelset/level_set_builder.h"
#include "sim/levelset/seed_spheres.h"

namespace meniscus::sim::reconstruct {

using levelset::kTileSide;
using levelset::kTileVoxels;
using levelset::SortedTileList;

namespace {

// A cell's corner: its trilinear weight at the sample and where its value is stored, or that
// it lies in a tile beyond the band on the inside (−γ, as low as φ goes).
struct Corner {
  float weight = 0.0f;
  bool stored = false;
  uint32_t tile_id = 0;
  int voxel = 0;
};

// The eight corners of the cell holding `at`; false when one of them lies outside beyond the band.
bool cell_corners(const SortedTileList& list, glm::vec3 at, Corner corners[8]) {
  const glm::ivec3 base = glm::ivec3(glm::floor(at));
  const glm::vec3 f = at - glm::vec3(base);
  for (int k = 0; k < 8; ++k) {
    const glm::ivec3 offset(k & 1, k >> 1 & 1, k >> 2 & 1);
    const glm::ivec3 voxel = base + offset;
    Corner& corner = corners[k];
    corner.weight = (offset.x ? f.x : 1 - f.x) * (offset.y ? f.y : 1 - f.y) * (offset.z ? f.z : 1 - f.z);
    const glm::ivec3 tile = voxel / kTileSide;  // samples lie inside the cube: voxels are not negative
    const auto position = list.find(levelset::key_of({tile.x, tile.y, tile.z}));
    corner.stored = position.has_value();
    if (corner.stored) {
      const glm::ivec3 local = voxel - tile * kTileSide;
      corner.tile_id = list.active()[*position].id;
      corner.voxel = SortedTileList::voxel_index(local.x, local.y, local.z);
    } else if (!levelset::inside_beyond_band(list, voxel)) {
      return false;
    }
  }
  return true;
}

// Lowers the stored corners so that the interpolation at the sample is at most −margin; the
// change of each is proportional to its weight, the least-squares smallest that does it.
void lower_to_margin(SortedTileList& list, const Corner corners[8], float margin) {
  const float gamma = list.gamma();
  float interpolated = 0.0f, squares = 0.0f;
  for (int k = 0; k < 8; ++k) {
    const Corner& c = corners[k];
    interpolated += c.weight * (c.stored ? list.value(c.tile_id, c.voxel) : -gamma);
    if (c.stored) squares += c.weight * c.weight;
  }
  if (interpolated <= -margin || squares == 0.0f) return;
  const float excess = interpolated + margin;
  for (int k = 0; k < 8; ++k) {
    const Corner& c = corners[k];
    if (!c.stored) continue;
    float tile[kTileVoxels];
    list.read(c.tile_id, tile);
    tile[c.voxel] = std::clamp(tile[c.voxel] - excess * c.weight / squares, -gamma, gamma);
    list.write(c.tile_id, tile);
    list.update_flags(c.tile_id);
  }
}

}  // namespace

void hold_inside(SortedTileList& list, std::span<const glm::vec3> voxels, float margin, const std::string& what) {
  std::vector<levelset::SeedSphere> beyond_band;
  Corner corners[8];
  for (const glm::vec3 at : voxels) {
    if (cell_corners(list, at, corners))
      lower_to_margin(list, corners, margin);
    else
      beyond_band.push_back({at, 1.0f});
  }
  if (!beyond_band.empty()) levelset::add_spheres(list, beyond_band, what);
}

}  // namespace meniscus::sim::reconstruct
