#pragma once
// The caustic on the floor from stored photons: a photon kd-tree (the project's point kd-tree,
// VVH for k-nearest queries, Zhou et al. 2008 §5) and, at each pixel centre of a floor
// rectangle, the density estimate E = k Φ / (π r_k²) over its k nearest photons (their range
// search from Algorithm 7's radius, narrowed as Algorithm 6 does: sim/kdtree/knn.h).
#include <cstdint>
#include <vector>

#include <glm/vec2.hpp>

#include "sim/photon/caustic_photons.h"

namespace meniscus::sim::photon {

struct FloorGrid {
  glm::vec2 min{0.0f}, max{1.0f};  // x, z
  float y = 0.0f;
  uint32_t width = 64, height = 64;
};

struct CausticImage {
  FloorGrid grid;
  std::vector<float> irradiance;  // W/m², row-major, row 0 at min.z
  uint32_t k = 0;                 // photons per estimate (fewer when fewer were stored)
  double tree_ms = 0, estimate_ms = 0;
  float at(uint32_t x, uint32_t z) const { return irradiance[size_t(z) * grid.width + x]; }
  double mean() const;
};

// Throws InputError for an empty grid or k = 0. No stored photons: zero everywhere.
CausticImage estimate_caustics(const CausticPhotons& photons, const FloorGrid& grid, uint32_t k = 64);

}  // namespace meniscus::sim::photon
