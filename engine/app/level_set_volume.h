#pragma once
// A sparse level set as the dense volume marching cubes reads: the band's bounding box plus one
// voxel of outside all round (so the surface closes), in world units, negated so that inside is
// positive as for the other volumes (sim/histopyramid/volume.h).
#include <filesystem>
#include <string>

#include <glm/glm.hpp>

#include "sim/histopyramid/volume.h"
#include "sim/levelset/sorted_tile_list.h"
#include "sim/reconstruct/reconstruction.h"

namespace meniscus {

// Voxel v lies at world position voxel_origin + v * voxel_size.
sim::Volume level_set_volume(const sim::levelset::SortedTileList& list, glm::vec3 voxel_origin, float voxel_size,
                             std::string source);

sim::Volume reconstruction_volume(const sim::reconstruct::Reconstruction& reconstruction);

// A .vdb level set read with sim/levelset/vdb_io (InputError naming the file for a bad one).
sim::Volume load_vdb_volume(const std::filesystem::path& file);

}  // namespace meniscus
