#pragma once
// How far the samples are from the reconstructed surface, as a user measures it: the distance
// from every sample to the mesh of the zero level set. The paper's error E (mean |φ| at the
// samples, surface_error.h) cannot see a lost part: the narrow band clamps |φ| at γ voxels, so a
// sample a hundred voxels from the surface counts as γ. (The reconstruction's own per-level
// test for lost samples, surface_distances in surface_error.h, works on the band instead of a
// mesh; the two agree to a few hundredths of a percent.)
#include <cstddef>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "sim/histopyramid/indexed_mesh.h"
#include "sim/reconstruct/reconstruction.h"

namespace meniscus::sim::reconstruct {

// The zero level set of the finest band as a mesh in world units (cube records, marching
// cubes), as the engine draws it. `what` names the input in errors.
IndexedMesh extract_surface(const Reconstruction& reconstruction, const char* what);

// The exact unsigned distance from each point to the nearest point of the mesh's triangles, the
// same numbers as testing every triangle (triangles binned on a uniform grid, searched ring by
// ring until no nearer triangle can remain). +inf for every point when the mesh has no
// triangles; NaN for a point with a NaN or infinite coordinate.
std::vector<float> distances_to_mesh(const IndexedMesh& mesh, std::span<const glm::vec3> points);

struct SurfaceAccuracy {
  double mean_percent = 0;  // mean distance, % of the samples' bounding-box diagonal
  double max_percent = 0;   // the worst sample's
  // Quantiles, which tell a mean raised by a few far samples (a lost part, a sealed fold) from
  // one raised everywhere (a surface offset from all its samples).
  double median_percent = 0;
  double p99_percent = 0;   // the distance 99% of the samples are within
  size_t worst_sample = 0;  // its index
};

// The mean and the worst of per-sample distances as % of `diagonal` (in the distances' unit).
SurfaceAccuracy summarise_distances(std::span<const float> distances, double diagonal);

// distances_to_mesh, summarised.
SurfaceAccuracy surface_accuracy(const IndexedMesh& mesh, std::span<const glm::vec3> points, double diagonal);

}  // namespace meniscus::sim::reconstruct
