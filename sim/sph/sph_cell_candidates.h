#pragma once
// The CPU neighbour search's inner loop. The particles are sorted by cell, so consecutive
// particles share the 27 cells around them: their candidates (positions as three arrays, and
// indices) are gathered once per cell, in for_each_neighbour's order, and each particle then
// tests all of them without a branch per candidate (about one in seven is a neighbour, a branch
// the predictor mostly misses). The lists come out exactly as for_each_neighbour's.
#include <cstdint>
#include <vector>

#include "sim/sph/sph_grid.h"

namespace meniscus::sim::sph {

class CellCandidates {
 public:
  // Candidates from `points`, sorted by cell (cell_begin: offsets by rank).
  CellCandidates(const GridShape& grid, const uint32_t* rank, const uint32_t* cell_begin, const Vec3* points)
      : grid_(grid), rank_(rank), cell_begin_(cell_begin), points_(points) {}

  // The points of the 27 cells around x's cell, unless those are already the ones gathered.
  void gather(Vec3 x);

  // Appends to `out`, in gathered order, every candidate closer to x than sqrt(radius_squared)
  // other than `self`.
  void within(Vec3 x, float radius_squared, uint32_t self, std::vector<uint32_t>& out);

 private:
  GridShape grid_;
  const uint32_t* rank_;
  const uint32_t* cell_begin_;
  const Vec3* points_;
  int cell_[3] = {-1, -1, -1};  // whose surroundings x_ .. index_ hold
  std::vector<float> x_, y_, z_;
  std::vector<uint32_t> index_;
  std::vector<uint32_t> hits_;  // scratch of within(), one slot per candidate
};

}  // namespace meniscus::sim::sph
