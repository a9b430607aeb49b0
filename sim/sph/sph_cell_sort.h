#pragma once
// Counting sort of particles by grid cell (CPU backend), cells in Z-order.
//
// Counting and scattering use atomics, so the order inside a cell would depend on the thread
// schedule; each cell's slice is then sorted by previous index, which makes the result a pure
// function of the input (bit-identical runs for a fixed thread count, and for any count).
#include <cstdint>
#include <vector>

#include "sim/sph/sph_grid.h"

namespace meniscus::sim::sph {

class CellSort {
 public:
  void sort(const GridShape& grid, const std::vector<uint32_t>& rank, const Vec3* positions, uint32_t count);

  // order()[k] = the input index of the particle that goes to place k.
  const std::vector<uint32_t>& order() const { return order_; }
  // cell_begin()[r] .. cell_begin()[r + 1]: the places of the particles in the cell of rank r.
  const std::vector<uint32_t>& cell_begin() const { return cell_begin_; }

 private:
  std::vector<uint32_t> key_;
  std::vector<uint32_t> order_;
  std::vector<uint32_t> cell_begin_;
  std::vector<uint32_t> cursor_;
};

}  // namespace meniscus::sim::sph
