#include "sim/sph/sph_cell_sort.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>

namespace meniscus::sim::sph {

void CellSort::sort(const GridShape& grid, const std::vector<uint32_t>& rank, const Vec3* positions, uint32_t count) {
  const uint32_t cells = grid.cells();
  key_.resize(count);
  order_.resize(count);
  cell_begin_.assign(size_t(cells) + 1, 0u);
  tbb::parallel_for(tbb::blocked_range<uint32_t>(0, count, 4096), [&](const tbb::blocked_range<uint32_t>& r) {
    for (uint32_t i = r.begin(); i != r.end(); ++i) {
      int c[3];
      cell_coords(grid, positions[i], c);
      key_[i] = rank[linear_cell(grid, c[0], c[1], c[2])];
      std::atomic_ref<uint32_t>(cell_begin_[key_[i] + 1]).fetch_add(1, std::memory_order_relaxed);
    }
  });
  for (uint32_t r = 0; r < cells; ++r) cell_begin_[r + 1] += cell_begin_[r];
  cursor_.assign(cell_begin_.begin(), cell_begin_.end() - 1);
  tbb::parallel_for(tbb::blocked_range<uint32_t>(0, count, 4096), [&](const tbb::blocked_range<uint32_t>& r) {
    for (uint32_t i = r.begin(); i != r.end(); ++i)
      order_[std::atomic_ref<uint32_t>(cursor_[key_[i]]).fetch_add(1, std::memory_order_relaxed)] = i;
  });
  tbb::parallel_for(tbb::blocked_range<uint32_t>(0, cells, 1024), [&](const tbb::blocked_range<uint32_t>& r) {
    for (uint32_t c = r.begin(); c != r.end(); ++c)
      if (cell_begin_[c + 1] - cell_begin_[c] > 1)
        std::sort(order_.begin() + cell_begin_[c], order_.begin() + cell_begin_[c + 1]);
  });
}

}  // namespace meniscus::sim::sph
