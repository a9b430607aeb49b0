#pragma once
// Building a sorted tile list from a signed distance function sampled at voxel centres
// (voxel (i, j, k) is the point (i, j, k) in voxel units; negative inside).
#include <functional>
#include <optional>

#include <glm/glm.hpp>

#include "sim/levelset/sorted_tile_list.h"

namespace meniscus::sim::levelset {

using DistanceFn = std::function<float(glm::vec3)>;

// Adds every tile of [voxel_min, voxel_max) that holds a voxel with |sdf| < γ, values clamped
// to [-γ, γ]. A tile is examined only if its centre is within γ + its half-diagonal (the SDF is
// 1-Lipschitz), so the cost follows the surface, not the domain. Throws InputError when the
// domain does not fit 32-bit tile keys.
void build_from_sdf(SortedTileList& list, const DistanceFn& sdf, glm::ivec3 voxel_min, glm::ivec3 voxel_max);

// Re-samples the SDF into every active tile and refreshes its flags (for tests that move an
// analytic surface and let tile management follow it).
void resample(SortedTileList& list, const DistanceFn& sdf);

// φ at a voxel: its tile's value, or ±γ (by `outside_sign`) where no tile is active.
float sample(const SortedTileList& list, glm::ivec3 voxel, float outside_sign = 1.0f);
// φ at a voxel when an active tile holds it.
std::optional<float> value_at(const SortedTileList& list, glm::ivec3 voxel);
// Whether a voxel of a tile the list does not hold lies inside. Such a tile is wholly inside or
// outside, and which, row by row of voxels, the nearest active tile before it in its tile row
// says (the last voxel of that row), as inside_moments() decides: rows start outside.
bool inside_beyond_band(const SortedTileList& list, glm::ivec3 voxel);
// Whether any voxel lies inside: its value's sign where an active tile holds it, else
// inside_beyond_band (below voxel 0 is outside).
bool inside_at(const SortedTileList& list, glm::ivec3 voxel);

// Mean distance from `centre` of the zero crossings of φ along grid edges (linear
// interpolation) between active voxels: a sphere's radius as the level set sees it.
double mean_crossing_distance(const SortedTileList& list, glm::vec3 centre);

}  // namespace meniscus::sim::levelset
