#include "sim/levelset/level_set_measures.h"

#include <tbb/combinable.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "sim/levelset/halo_block.h"

namespace meniscus::sim::levelset {

InsideMoments inside_moments(const SortedTileList& list) {
  const auto& active = list.active();
  double volume = 0;
  glm::dvec3 moment(0.0);
  for (size_t i = 0; i < active.size(); ++i) {
    const TileCoord c = coord_of(active[i].key);
    float phi[kTileVoxels];
    list.read(active[i].id, phi);
    const glm::dvec3 origin(c.x * kTileSide, c.y * kTileSide, c.z * kTileSide);
    for (int z = 0; z < kTileSide; ++z)
      for (int y = 0; y < kTileSide; ++y)
        for (int x = 0; x < kTileSide; ++x) {
          const double w = std::clamp(0.5 - double(phi[SortedTileList::voxel_index(x, y, z)]), 0.0, 1.0);
          volume += w;
          moment += w * (origin + glm::dvec3(x, y, z));
        }
    // The gap up to the next tile of the same tile row (keys of one row differ in x only).
    if (i + 1 == active.size()) continue;
    const TileCoord next = coord_of(active[i + 1].key);
    if (next.y != c.y || next.z != c.z || next.x == c.x + 1) continue;
    const double first = double(c.x + 1) * kTileSide, last = double(next.x) * kTileSide - 1;
    const double count = last - first + 1;
    for (int z = 0; z < kTileSide; ++z)
      for (int y = 0; y < kTileSide; ++y) {
        if (phi[SortedTileList::voxel_index(kTileSide - 1, y, z)] >= 0) continue;
        volume += count;
        moment += glm::dvec3(count * 0.5 * (first + last), count * (origin.y + y), count * (origin.z + z));
      }
  }
  return {volume, volume > 0 ? moment / volume : glm::dvec3(0.0)};
}

double surface_area(const SortedTileList& list) {
  const double eps = std::min(1.5, double(list.gamma()));
  tbb::combinable<double> partial([] { return 0.0; });
  for_each_halo_block(list, [&](size_t, uint32_t, const float* block) {
    double sum = 0;
    for (int z = 0; z < kTileSide; ++z)
      for (int y = 0; y < kTileSide; ++y)
        for (int x = 0; x < kTileSide; ++x) {
          const float* p = block + halo_index(x, y, z);
          if (std::abs(p[0]) >= eps) continue;
          const double gx = 0.5 * (p[1] - p[-1]), gy = 0.5 * (p[kHaloStrideY] - p[-kHaloStrideY]),
                       gz = 0.5 * (p[kHaloStrideZ] - p[-kHaloStrideZ]);
          const double delta = (1 + std::cos(std::numbers::pi * p[0] / eps)) / (2 * eps);
          sum += delta * std::sqrt(gx * gx + gy * gy + gz * gz);
        }
    partial.local() += sum;
  });
  return partial.combine(std::plus<double>());
}

}  // namespace meniscus::sim::levelset
