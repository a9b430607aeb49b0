#pragma once
// The surface fitted to the samples it has settled near. The front stops where the Shepard
// field's pull balances between samples, and the final reinitialisation moves the zero set by a
// fraction of a voxel: on Lucy at level 9 half the samples end more than 0.18 voxels from the
// surface and 12% more than half a voxel, two thirds of the mean distance. Poisson
// reconstruction fits its indicator to every sample; this fits the level set, locally: each
// sample within `reach` of the surface asks for φ = 0 where it stands, and every band voxel
// within `radius` R of samples moves by the weighted mean of their residuals
//     δ(v) = −Σ_i w(|v − s_i|) φ(s_i) / (Σ_i w(|v − s_i|) + weight_floor),   w(d) = (1 − d²/R²)²,
// repeated `iterations` times. A mean over a neighbourhood is a least-squares fit: samples that
// disagree (noise) meet halfway, the surface stays smooth at the scale of R, and the floor lets
// a lone sample's pull fade out to nothing at R.
//  - A voxel changes side only where it is a simple point (inside 6-connected, as marching
//    cubes joins inside corners, outside 26-connected): the fit moves the surface and never
//    makes, joins or splits a part or a hole. Without that test a sample above a flat stretch of
//    φ grew a speck of its own (Lucy: 13 new parts at reach 1).
//  - Samples farther than `reach` are left alone: within the band φ is a distance (the level ends
//    with a reinitialisation), at its edge it is clamped to ±γ and says nothing of where the
//    surface is; and a part the front passed or an outlier is not the fit's to bring back.
#include <cstddef>
#include <span>

#include <glm/vec3.hpp>

#include "sim/levelset/sorted_tile_list.h"

namespace meniscus::sim::reconstruct {

struct SampleFitParams {
  float reach = 1.0f;          // voxels: samples with |φ| above this are not fitted (< γ)
  // Voxels: R, how far a sample's residual spreads. At 2 Lucy's shading turned grainy along the
  // creases of her dress (mean distance 0.0170% of the diagonal; 0.0180% at 3).
  float radius = 3.0f;
  float weight_floor = 0.25f;  // a lone sample at a corner (w ≈ 0.5) is fitted two thirds a pass
  int iterations = 3;
};

struct SampleFitReport {
  size_t fitted = 0;               // samples within reach at the first iteration
  double mean_residual_before = 0; // mean |φ| at those samples, voxels
  double mean_residual_after = 0;
};

// `voxels`: the samples in the list's voxel space. Only voxels the list holds change, clamped to
// ±γ; tiles are neither added nor removed.
SampleFitReport fit_to_samples(levelset::SortedTileList& list, std::span<const glm::vec3> voxels,
                               const SampleFitParams& params);

}  // namespace meniscus::sim::reconstruct
