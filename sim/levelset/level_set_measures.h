#pragma once
// Integral measures of a sparse level set, for the Enright test and benchmarks: enclosed
// volume, its centroid, and surface area, all in voxel units.
#include <glm/glm.hpp>

#include "sim/levelset/sorted_tile_list.h"

namespace meniscus::sim::levelset {

struct InsideMoments {
  double volume = 0;    // voxels
  glm::dvec3 centroid;  // voxel coordinates
};

// Volume of {φ < 0} and its centroid. A stored voxel counts clamp(½ − φ, 0, 1) (exact for a
// plane along an axis through the voxel's cell). Tiles not in the list lie beyond the band
// and are wholly inside or outside: along each voxel row, a gap between two tiles of the same
// tile row takes the sign of the last voxel before it; rows start outside.
InsideMoments inside_moments(const SortedTileList& list);

// Σ δε(φ)|∇φ| over the stored voxels (cosine delta of half-width ε = min(1.5, γ), central
// differences): the area of the zero level set.
double surface_area(const SortedTileList& list);

}  // namespace meniscus::sim::levelset
