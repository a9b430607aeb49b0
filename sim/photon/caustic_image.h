#pragma once
// The caustic on the floor from stored photons: a photon kd-tree (the project's point kd-tree,
// VVH for k-nearest queries, Zhou et al. 2008 §5) and, at each pixel centre of a floor
// rectangle, the density estimate E = k Φ / (π r_k²) over its k nearest photons (their range
// search from Algorithm 7's radius, narrowed as Algorithm 6 does: sim/kdtree/knn.h).
#include <cstdint>
#include <vector>

#include "sim/photon/caustic_photons.h"
#include "sim/photon/floor_grid.h"

namespace meniscus::sim::photon {

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

// The checks of estimate_caustics (InputError), for a backend that estimates elsewhere.
void validate_caustic_request(const FloorGrid& grid, uint32_t k);

// k Φ / π, the numerator of the estimate from k photons of power Φ each.
float caustic_energy(uint32_t k, float power_per_photon);

}  // namespace meniscus::sim::photon
