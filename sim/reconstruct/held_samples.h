#pragma once
// Samples held inside the surface. A sample the front has passed once (a part pinched off at a
// coarse level, a sheet sampled more sparsely than the level resolves, the rim of a hole in the
// scan) is put back as a ball, and the finer level convects the ball onto the samples again;
// there the fronts from the part's two sides meet once more unless something stops them. Held
// samples stop them: after every step φ interpolated at each is kept at or below −margin, by the
// least change (in the least-squares sense) of the eight corners of its cell. The fronts may
// still meet between two held samples, never across one; where they meet all around one, what
// is left is a speck (levelset/small_parts.h). A sample the front reaches from one side only is
// moved by the margin at most.
#include <span>
#include <string>

#include <glm/vec3.hpp>

#include "sim/levelset/sorted_tile_list.h"

namespace meniscus::sim::reconstruct {

// `voxels`: the held samples in the list's voxel space. Corners in tiles beyond the band on the
// inside are −γ already; a sample with a corner beyond the band on the outside is given a ball
// of one voxel instead (levelset::add_spheres, which creates the tiles; InputError naming
// `what` as there).
void hold_inside(levelset::SortedTileList& list, std::span<const glm::vec3> voxels, float margin,
                 const std::string& what);

}  // namespace meniscus::sim::reconstruct
