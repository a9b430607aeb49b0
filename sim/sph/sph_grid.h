#pragma once
// The uniform grid of the neighbour search: cells one support radius wide over the domain, so a
// particle's neighbours lie in the 27 cells around its own.
//
// Cells are numbered along a Z-order (Morton) curve rather than row by row: a counting sort by
// that rank leaves the particles in space-filling-curve order, so neighbours sit close in
// memory on both backends. `rank` maps a row-major cell index to its Z-order rank; it is
// computed once per domain.
#include <cstdint>
#include <vector>

#include "sim/sph/sph_kernel.h"

namespace meniscus::sim::sph {

struct GridShape {
  Vec3 origin;
  float inverse_cell;
  int dims[3];

  uint32_t cells() const { return uint32_t(dims[0]) * uint32_t(dims[1]) * uint32_t(dims[2]); }
};

// Cells covering [lo, hi] with a margin of one cell, so boundary particles on the domain's
// walls and particles pushed slightly through them still fall inside the grid.
GridShape grid_over(Vec3 lo, Vec3 hi, float cell);

MENISCUS_HD inline int clamp_cell(int c, int n) { return c < 0 ? 0 : (c >= n ? n - 1 : c); }

MENISCUS_HD inline void cell_coords(const GridShape& g, Vec3 p, int out[3]) {
  out[0] = clamp_cell(int(floorf((p.x - g.origin.x) * g.inverse_cell)), g.dims[0]);
  out[1] = clamp_cell(int(floorf((p.y - g.origin.y) * g.inverse_cell)), g.dims[1]);
  out[2] = clamp_cell(int(floorf((p.z - g.origin.z) * g.inverse_cell)), g.dims[2]);
}

MENISCUS_HD inline uint32_t linear_cell(const GridShape& g, int x, int y, int z) {
  return (uint32_t(z) * uint32_t(g.dims[1]) + uint32_t(y)) * uint32_t(g.dims[0]) + uint32_t(x);
}

// rank[linear_cell] = position of the cell along the Z-order curve (a permutation of the cells).
std::vector<uint32_t> z_order_ranks(const GridShape& g);

// Calls visit(first, end) for the particle range of each of the 27 cells around `p`, in a fixed
// order; `cell_begin` holds cells + 1 offsets by rank.
template <class Visit>
MENISCUS_HD inline void for_each_nearby_cell(const GridShape& g, const uint32_t* rank, const uint32_t* cell_begin, Vec3 p,
                                             Visit&& visit) {
  int c[3];
  cell_coords(g, p, c);
  for (int z = c[2] - 1; z <= c[2] + 1; ++z) {
    if (z < 0 || z >= g.dims[2]) continue;
    for (int y = c[1] - 1; y <= c[1] + 1; ++y) {
      if (y < 0 || y >= g.dims[1]) continue;
      for (int x = c[0] - 1; x <= c[0] + 1; ++x) {
        if (x < 0 || x >= g.dims[0]) continue;
        const uint32_t r = rank[linear_cell(g, x, y, z)];
        if (cell_begin[r] != cell_begin[r + 1]) visit(cell_begin[r], cell_begin[r + 1]);
      }
    }
  }
}

}  // namespace meniscus::sim::sph
