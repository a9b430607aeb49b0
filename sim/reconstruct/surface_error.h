#pragma once
// The paper's reconstruction error E (Jalba et al. 2013, §6.4): the mean of |φ(x_i)| over the
// input samples, φ trilinearly interpolated from the tiles, as a percentage of the bounding
// box's main diagonal. With φ a distance in voxels it bounds the mean distance from the samples
// to the surface. A sample whose cell is not in the band counts as γ.
#include <span>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/levelset/sorted_tile_list.h"

namespace meniscus::sim::reconstruct {

// φ at a voxel-space position by trilinear interpolation; corners outside the band read ±γ
// with the sign of an interpolated corner that is in it (γ when none is).
float interpolate_phi(const levelset::SortedTileList& list, glm::vec3 voxel);

// Mean |φ| at `voxels` (positions in the list's voxel space), in voxels.
double mean_abs_phi(const levelset::SortedTileList& list, std::span<const glm::vec3> voxels);

// Each sample's distance to the surface, in voxels: |φ| where every corner of the sample's cell
// is strictly inside the band (|φ| < γ), else the distance to the nearest zero crossing on an
// edge between two band voxels. Unlike E, which counts a sample outside the band as γ, this
// sees a lost limb: its samples are as far from the surface as the limb was long.
std::vector<float> surface_distances(const levelset::SortedTileList& list, std::span<const glm::vec3> voxels);

}  // namespace meniscus::sim::reconstruct
