#pragma once
// Where a ray first meets a sparse level set's zero level: for picking (a sculpting brush
// under the mouse). Marches half a voxel at a time through the stored tiles and interpolates
// the crossing linearly; tiles not stored lie beyond the band, which a ray from outside must
// cross first, so they are stepped over.
#include <optional>

#include <glm/glm.hpp>

#include "sim/levelset/sorted_tile_list.h"

namespace meniscus::sim::levelset {

// `origin` and `direction` in voxels (direction need not be unit length); the hit's voxel
// position, or nullopt when none lies within `max_voxels` of travel.
std::optional<glm::vec3> first_hit(const SortedTileList& list, glm::vec3 origin, glm::vec3 direction, float max_voxels);

}  // namespace meniscus::sim::levelset
