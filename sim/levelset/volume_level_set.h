#pragma once
// A narrow-band level set from a dense scalar volume (a CT scan, a density map) and an iso
// value: the iso-surface becomes the zero level, samples at or above the iso value inside
// (negative), the same tie rule as marching cubes (sim/histopyramid). Samples beyond the volume
// count as outside, so a surface cut by the volume's edge is closed there.
//
// The volume's values are not distances, so φ is built in three steps: at each voxel next to a
// crossing, the distance to the plane through its axis crossings (linear interpolation along
// the six edges; Osher & Fedkiw §7.4's first-order initialisation); one voxel further, the
// nearest such voxel's distance plus the step to it; then a few iterations of the
// reinitialisation PDE make |∇φ| = 1 across the band while barely moving the zero level.
#include <span>
#include <string>

#include <glm/glm.hpp>

#include "sim/levelset/sorted_tile_list.h"

namespace meniscus::sim::levelset {

struct DenseVolumeView {
  glm::ivec3 dims{0};
  std::span<const float> values;  // x fastest, then y, then z
};

struct VolumeLevelSetStats {
  size_t crossing_voxels = 0;  // voxels next to a crossing
  size_t tiles = 0;
};

// Fills `list` (empty). Level-set voxel v is volume sample v - margin (margin >= 1, so the
// border closes the surface). InputError naming `name`: empty volume, wrong value count,
// a non-finite sample, an iso value outside the data range (no surface), a domain beyond the
// tile keys.
VolumeLevelSetStats build_from_volume(SortedTileList& list, const DenseVolumeView& volume, float iso, int margin,
                                      int reinit_iterations, const std::string& name);

}  // namespace meniscus::sim::levelset
