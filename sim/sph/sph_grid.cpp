#include "sim/sph/sph_grid.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace meniscus::sim::sph {
namespace {

uint64_t spread_bits(uint64_t v) {  // 21 bits -> every third bit of 63
  v &= 0x1fffff;
  v = (v | v << 32) & 0x1f00000000ffffull;
  v = (v | v << 16) & 0x1f0000ff0000ffull;
  v = (v | v << 8) & 0x100f00f00f00f00full;
  v = (v | v << 4) & 0x10c30c30c30c30c3ull;
  v = (v | v << 2) & 0x1249249249249249ull;
  return v;
}

}  // namespace

GridShape grid_over(Vec3 lo, Vec3 hi, float cell) {
  GridShape g;
  g.origin = lo - Vec3{cell, cell, cell};
  g.inverse_cell = 1.0f / cell;
  const float extent[3] = {hi.x - lo.x, hi.y - lo.y, hi.z - lo.z};
  for (int a = 0; a < 3; ++a) g.dims[a] = int(std::ceil(extent[a] / cell)) + 2;
  return g;
}

std::vector<uint32_t> z_order_ranks(const GridShape& g) {
  const uint32_t n = g.cells();
  std::vector<uint64_t> key(n);
  for (int z = 0; z < g.dims[2]; ++z)
    for (int y = 0; y < g.dims[1]; ++y)
      for (int x = 0; x < g.dims[0]; ++x)
        key[linear_cell(g, x, y, z)] = spread_bits(uint64_t(x)) | spread_bits(uint64_t(y)) << 1 | spread_bits(uint64_t(z)) << 2;
  std::vector<uint32_t> by_rank(n);
  std::iota(by_rank.begin(), by_rank.end(), 0u);
  std::sort(by_rank.begin(), by_rank.end(), [&](uint32_t a, uint32_t b) { return key[a] < key[b]; });
  std::vector<uint32_t> rank(n);
  for (uint32_t r = 0; r < n; ++r) rank[by_rank[r]] = r;
  return rank;
}

}  // namespace meniscus::sim::sph
