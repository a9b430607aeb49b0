#pragma once
// The neighbour query both backends run per particle: every fluid particle and boundary
// sample within the support radius, visited in a fixed order (cells in a fixed order, each
// cell's particles in sorted order), so the flat lists come out identical on CPU and GPU.
#include <cstdint>

#include "sim/sph/sph_grid.h"

namespace meniscus::sim::sph {

struct NeighbourQuery {
  GridShape grid;
  const uint32_t* rank;
  const uint32_t* fluid_cells;  // cell_begin by rank, fluid in sorted order
  const Vec3* fluid;
  const uint32_t* boundary_cells;
  const Vec3* boundary;
  float support_squared;
};

template <class OnFluid, class OnBoundary>
MENISCUS_HD inline void for_each_neighbour(const NeighbourQuery& q, uint32_t i, OnFluid&& on_fluid,
                                           OnBoundary&& on_boundary) {
  const Vec3 x = q.fluid[i];
  for_each_nearby_cell(q.grid, q.rank, q.fluid_cells, x, [&](uint32_t first, uint32_t end) {
    for (uint32_t j = first; j < end; ++j) {
      const Vec3 d = x - q.fluid[j];
      if (j != i && dot(d, d) < q.support_squared) on_fluid(j);
    }
  });
  for_each_nearby_cell(q.grid, q.rank, q.boundary_cells, x, [&](uint32_t first, uint32_t end) {
    for (uint32_t b = first; b < end; ++b) {
      const Vec3 d = x - q.boundary[b];
      if (dot(d, d) < q.support_squared) on_boundary(b);
    }
  });
}

// Whether a fluid particle lies within sqrt(min_distance_squared) of p: an emitter does not
// release a particle onto one still in its mouth (an overlapping pair has no kernel gradient to
// separate it, and the solver's multipliers explode).
MENISCUS_HD inline bool occupied(const NeighbourQuery& q, Vec3 p, float min_distance_squared) {
  bool hit = false;
  for_each_nearby_cell(q.grid, q.rank, q.fluid_cells, p, [&](uint32_t first, uint32_t end) {
    for (uint32_t j = first; j < end && !hit; ++j) {
      const Vec3 d = p - q.fluid[j];
      hit = dot(d, d) < min_distance_squared;
    }
  });
  return hit;
}

// How close to a fluid particle an emitter may place one, in lattice spacings.
constexpr float kEmitterClearance = 0.75f;

}  // namespace meniscus::sim::sph
