#include "sim/reconstruct/sample_fit.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <glm/glm.hpp>
#include <utility>
#include <vector>

#include "sim/levelset/level_set_builder.h"
#include "sim/reconstruct/surface_error.h"

namespace meniscus::sim::reconstruct {

using levelset::kTileSide;
using levelset::kTileVoxels;
using levelset::SortedTileList;

namespace {

// Σ w r and Σ w for the voxels of one tile.
struct FitSums {
  float weighted_residual[kTileVoxels] = {};
  float weight[kTileVoxels] = {};
};

// φ at each sample; NaN for one farther than `reach`, which is not fitted.
std::vector<float> residuals(const SortedTileList& list, std::span<const glm::vec3> voxels, float reach) {
  std::vector<float> r(voxels.size());
  tbb::parallel_for(size_t(0), voxels.size(), [&](size_t i) {
    const float phi = interpolate_phi(list, voxels[i]);
    r[i] = std::abs(phi) <= reach ? phi : NAN;
  });
  return r;
}

double mean_abs_fitted(std::span<const float> r, size_t* count = nullptr) {
  double sum = 0;
  size_t n = 0;
  for (const float v : r)
    if (!std::isnan(v)) sum += std::abs(v), ++n;
  if (count) *count = n;
  return n ? sum / double(n) : 0.0;
}

// Splats each fitted sample's residual onto the band voxels within the radius. Sequential, in
// sample order: the sums, and so the surface, do not depend on the thread count.
std::vector<FitSums> splat(const SortedTileList& list, std::span<const glm::vec3> voxels, std::span<const float> r,
                           float radius, std::vector<int32_t>& sums_of_tile) {
  std::vector<FitSums> sums;
  sums_of_tile.assign(list.size(), -1);
  const float r2 = radius * radius;
  for (size_t i = 0; i < voxels.size(); ++i) {
    if (std::isnan(r[i])) continue;
    const glm::vec3 s = voxels[i];
    const glm::ivec3 lo = glm::max(glm::ivec3(glm::ceil(s - radius)), glm::ivec3(0));
    const glm::ivec3 hi = glm::ivec3(glm::floor(s + radius));
    for (int z = lo.z; z <= hi.z; ++z)
      for (int y = lo.y; y <= hi.y; ++y)
        for (int x = lo.x; x <= hi.x; ++x) {
          const glm::vec3 d = glm::vec3(x, y, z) - s;
          const float q = glm::dot(d, d) / r2;
          if (q >= 1.0f) continue;
          const glm::ivec3 tile(x / kTileSide, y / kTileSide, z / kTileSide);
          const auto position = list.find(levelset::key_of({tile.x, tile.y, tile.z}));
          if (!position) continue;  // beyond the band: ±γ, far from any zero crossing
          int32_t& slot = sums_of_tile[*position];
          if (slot < 0) slot = int32_t(sums.size()), sums.emplace_back();
          const int voxel = SortedTileList::voxel_index(x - tile.x * kTileSide, y - tile.y * kTileSide, z - tile.z * kTileSide);
          const float w = (1.0f - q) * (1.0f - q);
          sums[size_t(slot)].weighted_residual[voxel] += w * r[i];
          sums[size_t(slot)].weight[voxel] += w;
        }
  }
  return sums;
}

// Whether the voxel is a simple point (Bertrand & Malandain 1994): changing its side neither
// makes nor joins nor splits a part or a hole, the inside taken 6-connected (marching cubes'
// table keeps inside corners on a face diagonal apart) and the outside 26-connected. Its 26
// neighbours must hold one 26-connected outside component, and the inside ones among its 18
// face-and-edge neighbours one 6-connected component touching its faces.
bool is_simple_point(const SortedTileList& list, glm::ivec3 voxel) {
  const auto offset = [](int i) { return glm::ivec3(i % 3 - 1, i / 3 % 3 - 1, i / 9 - 1); };
  bool inside[27];
  for (int i = 0; i < 27; ++i) inside[i] = levelset::inside_at(list, voxel + offset(i));
  const auto in_18 = [&](int i) { const glm::ivec3 o = glm::abs(offset(i)); return o.x + o.y + o.z <= 2; };
  // Components among the cells `member` admits, adjacency by `adjacent`; counts those with a
  // cell `counted` admits.
  const auto components = [&](auto member, auto adjacent, auto counted) {
    int label[27], count = 0;
    std::fill(label, label + 27, -1);
    for (int seed = 0; seed < 27; ++seed) {
      if (seed == 13 || !member(seed) || label[seed] >= 0) continue;
      int stack[27], top = 0;
      bool counts = false;
      stack[top++] = seed;
      label[seed] = seed;
      while (top) {
        const int a = stack[--top];
        counts = counts || counted(a);
        for (int b = 0; b < 27; ++b)
          if (b != 13 && label[b] < 0 && member(b) && adjacent(offset(a) - offset(b))) label[b] = seed, stack[top++] = b;
      }
      count += counts;
    }
    return count;
  };
  const auto any_adjacent = [](glm::ivec3 d) { return glm::all(glm::lessThanEqual(glm::abs(d), glm::ivec3(1))); };
  const auto face_adjacent = [](glm::ivec3 d) { const glm::ivec3 a = glm::abs(d); return a.x + a.y + a.z == 1; };
  const int outside_parts = components([&](int i) { return !inside[i]; }, any_adjacent, [](int) { return true; });
  if (outside_parts != 1) return false;
  const int inside_parts = components([&](int i) { return inside[i] && in_18(i); }, face_adjacent,
                                      [&](int i) { return face_adjacent(offset(i)); });
  return inside_parts == 1;
}

}  // namespace

SampleFitReport fit_to_samples(SortedTileList& list, std::span<const glm::vec3> voxels, const SampleFitParams& params) {
  SampleFitReport report;
  if (params.iterations <= 0) return report;
  const float gamma = list.gamma();
  std::vector<int32_t> sums_of_tile;
  std::vector<float> first;  // the first pass's residuals: NaN for the samples not fitted
  for (int iteration = 0; iteration < params.iterations; ++iteration) {
    const std::vector<float> r = residuals(list, voxels, params.reach);
    if (iteration == 0) report.mean_residual_before = mean_abs_fitted(r, &report.fitted), first = r;
    const std::vector<FitSums> sums = splat(list, voxels, r, params.radius, sums_of_tile);
    // Changes that keep a voxel's side are made together; a voxel that changes side does so
    // afterwards, one at a time, and only where it is a simple point, so that the fit moves the
    // surface without making, joining or splitting parts.
    std::vector<std::array<float, kTileVoxels>> updated(sums.size());
    std::vector<std::vector<std::pair<int, float>>> crossings(sums.size());
    tbb::parallel_for(size_t(0), list.size(), [&](size_t t) {
      if (sums_of_tile[t] < 0) return;
      const size_t slot = size_t(sums_of_tile[t]);
      const FitSums& s = sums[slot];
      float* tile = updated[slot].data();
      list.read(list.active()[t].id, tile);
      for (int v = 0; v < kTileVoxels; ++v) {
        if (s.weight[v] == 0.0f) continue;
        const float fitted = std::clamp(tile[v] - s.weighted_residual[v] / (s.weight[v] + params.weight_floor), -gamma, gamma);
        if ((fitted < 0.0f) == (tile[v] < 0.0f))
          tile[v] = fitted;
        else
          crossings[slot].emplace_back(v, fitted);
      }
    });
    for (size_t t = 0; t < list.size(); ++t) {
      if (sums_of_tile[t] < 0) continue;
      const size_t slot = size_t(sums_of_tile[t]);
      const levelset::TileEntry& entry = list.active()[t];
      list.write(entry.id, updated[slot].data());
      const levelset::TileCoord c = levelset::coord_of(entry.key);
      const glm::ivec3 origin = glm::ivec3(c.x, c.y, c.z) * kTileSide;
      float* tile = updated[slot].data();
      for (const auto& [v, fitted] : crossings[slot]) {
        const glm::ivec3 voxel = origin + glm::ivec3(v % kTileSide, v / kTileSide % kTileSide, v / (kTileSide * kTileSide));
        if (!is_simple_point(list, voxel)) continue;
        tile[v] = fitted;
        list.write(entry.id, tile);
      }
      list.update_flags(entry.id);
    }
  }
  // Over the samples fitted at the start, so that before and after compare.
  std::vector<float> after = residuals(list, voxels, INFINITY);
  for (size_t i = 0; i < after.size(); ++i)
    if (std::isnan(first[i])) after[i] = NAN;
  report.mean_residual_after = mean_abs_fitted(after);
  return report;
}

}  // namespace meniscus::sim::reconstruct
