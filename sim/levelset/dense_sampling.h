#pragma once
// A sparse level set written into a dense grid, for consumers that want a volume (the
// HistoPyramid surface pass draws it). Voxels of active tiles keep their values; every other
// voxel is ±γ, and which sign is decided per tile region: the empty tiles connected to the
// grid's border are outside, the empty tiles the band encloses are inside (the band is a closed
// shell at least one tile thick, so no outside path crosses it).
#include <vector>

#include <glm/glm.hpp>

#include "sim/levelset/sorted_tile_list.h"

namespace meniscus::sim::levelset {

// Fills `out` (dims.x * dims.y * dims.z floats, x fastest) with φ at voxels min + (0..dims-1).
void sample_dense(const SortedTileList& list, glm::ivec3 min_voxel, glm::ivec3 dims, std::vector<float>& out);

}  // namespace meniscus::sim::levelset
