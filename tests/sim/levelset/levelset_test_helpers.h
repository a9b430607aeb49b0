#pragma once
// Checks shared by the level-set tests: analytic spheres, narrow-band coverage, and the list
// invariants that must hold after every tile-management step.
#include <cmath>
#include <sstream>
#include <string>

#include "sim/levelset/level_set_builder.h"

namespace meniscus::sim::levelset::testing {

inline DistanceFn sphere(glm::vec3 centre, float radius) {
  return [=](glm::vec3 p) { return glm::length(p - centre) - radius; };
}

// Voxels of the box with |sdf| < band that lie in no active tile (0: the band is covered).
inline size_t uncovered_band_voxels(const SortedTileList& list, const DistanceFn& sdf, glm::ivec3 lo, glm::ivec3 hi,
                                    float band) {
  size_t missing = 0;
  for (int z = lo.z; z < hi.z; ++z)
    for (int y = lo.y; y < hi.y; ++y)
      for (int x = lo.x; x < hi.x; ++x) {
        if (std::abs(sdf(glm::vec3(x, y, z))) >= band) continue;
        const TileCoord c{x / kTileSide, y / kTileSide, z / kTileSide};
        missing += !list.find(key_of(c)).has_value();
      }
  return missing;
}

inline size_t uncovered_band_voxels(const SortedTileList& list, const DistanceFn& sdf, glm::ivec3 lo, glm::ivec3 hi) {
  return uncovered_band_voxels(list, sdf, lo, hi, list.gamma());
}

// The structural invariants (sorted, unique, pool partitioned) and band closure as the level
// set itself sees it: a tile holding a voxel with |φ| < γ on a face, edge or corner has the
// neighbour across it in the list, so every voxel next to the band's voxels is stored and the
// next step's stencils read values, not the ±γ fallback. Empty when all hold.
inline std::string list_problems(const SortedTileList& list) {
  std::ostringstream problems;
  problems << list.check_invariants();
  const auto& offsets = neighbour_offsets();
  for (const TileEntry& e : list.active()) {
    const TileCoord c = coord_of(e.key);
    float phi[kTileVoxels];
    list.read(e.id, phi);
    for (int v = 0; v < kTileVoxels; ++v) {
      if (!(std::abs(phi[v]) <= list.gamma())) problems << "tile " << e.key << " holds " << phi[v] << " beyond ±γ; ";
    }
    for (int d = 0; d < 26; ++d) {
      if (!(list.activity(e.id) & (1u << d))) continue;
      const TileCoord n{c.x + offsets[d].x, c.y + offsets[d].y, c.z + offsets[d].z};
      if (representable(n) && !list.find(key_of(n)))
        problems << "tile (" << c.x << "," << c.y << "," << c.z << ") lacks its active neighbour " << d << "; ";
    }
  }
  return problems.str();
}

// Mean | |∇φ| − 1 | by central differences over stored voxels with |φ| < band whose six
// neighbours are stored: how far φ is from a distance function near the interface.
inline double mean_gradient_defect(const SortedTileList& list, float band) {
  double sum = 0;
  size_t count = 0;
  for (const TileEntry& e : list.active()) {
    const TileCoord c = coord_of(e.key);
    for (int v = 0; v < kTileVoxels; ++v) {
      const float phi = list.value(e.id, v);
      if (std::abs(phi) >= band) continue;
      const glm::ivec3 p = glm::ivec3(c.x, c.y, c.z) * kTileSide + glm::ivec3(v % 4, v / 4 % 4, v / 16);
      glm::vec3 g;
      bool complete = true;
      for (int a = 0; a < 3 && complete; ++a) {
        glm::ivec3 lo = p, hi = p;
        --lo[a];
        ++hi[a];
        const auto l = value_at(list, lo), h = value_at(list, hi);
        complete = l && h;
        if (complete) g[a] = 0.5f * (*h - *l);
      }
      if (!complete) continue;
      sum += std::abs(glm::length(g) - 1.0);
      ++count;
    }
  }
  return count ? sum / double(count) : 0.0;
}

// The largest |sdf| at the zero crossings of φ along grid edges between stored voxels (linear
// interpolation): how far the level set's surface strays from the analytic one, in voxels.
inline double max_crossing_error(const SortedTileList& list, const DistanceFn& sdf) {
  double worst = 0;
  for (const TileEntry& e : list.active()) {
    const TileCoord c = coord_of(e.key);
    for (int v = 0; v < kTileVoxels; ++v) {
      const glm::ivec3 p = glm::ivec3(c.x, c.y, c.z) * kTileSide + glm::ivec3(v % 4, v / 4 % 4, v / 16);
      const float a = list.value(e.id, v);
      for (int axis = 0; axis < 3; ++axis) {
        glm::ivec3 q = p;
        ++q[axis];
        const auto b = value_at(list, q);
        if (!b || (a < 0) == (*b < 0)) continue;
        glm::vec3 x(p);
        x[axis] += a / (a - *b);
        worst = std::max(worst, double(std::abs(sdf(x))));
      }
    }
  }
  return worst;
}

}  // namespace meniscus::sim::levelset::testing
