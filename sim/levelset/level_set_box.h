#pragma once
// The dense box a sparse level set occupies: the band's bounding box plus one voxel of outside
// all round (so a surface drawn in it closes), placed in world units.
#include <string>

#include <glm/glm.hpp>

#include "sim/histopyramid/volume.h"
#include "sim/levelset/sorted_tile_list.h"

namespace meniscus::sim::levelset {

// The box without its values (placement only: dims, origin, spacing). Voxel v lies at world
// position voxel_origin + v * voxel_size; `min_voxel` receives the voxel at the box's origin.
// InputError naming `source` when the list has no tiles.
Volume level_set_box(const SortedTileList& list, glm::vec3 voxel_origin, float voxel_size, std::string source,
                     glm::ivec3& min_voxel);

}  // namespace meniscus::sim::levelset
