#include "sim/reconstruct/surface_error.h"

#include <tbb/parallel_for.h>

#include <cmath>
#include <limits>
#include <mutex>
#include <optional>
#include <vector>

#include <glm/glm.hpp>

#include "sim/kdtree/kdtree.h"
#include "sim/kdtree/knn.h"
#include "sim/levelset/level_set_builder.h"

namespace meniscus::sim::reconstruct {

float interpolate_phi(const levelset::SortedTileList& list, glm::vec3 voxel) {
  const glm::vec3 base = glm::floor(voxel);
  const glm::vec3 f = voxel - base;
  std::optional<float> corner[8];
  float sign = 1.0f;
  for (int k = 0; k < 8; ++k) {
    const glm::ivec3 c = glm::ivec3(base) + glm::ivec3(k & 1, k >> 1 & 1, k >> 2 & 1);
    if (c.x < 0 || c.y < 0 || c.z < 0) continue;
    corner[k] = levelset::value_at(list, c);
    if (corner[k]) sign = std::copysign(1.0f, *corner[k]);
  }
  float sum = 0.0f;
  for (int k = 0; k < 8; ++k) {
    const float w = (k & 1 ? f.x : 1 - f.x) * (k >> 1 & 1 ? f.y : 1 - f.y) * (k >> 2 & 1 ? f.z : 1 - f.z);
    sum += w * (corner[k] ? *corner[k] : sign * list.gamma());
  }
  return sum;
}

double mean_abs_phi(const levelset::SortedTileList& list, std::span<const glm::vec3> voxels) {
  if (voxels.empty()) return 0.0;
  // Per-sample values summed in input order: the same figure on any number of threads.
  std::vector<float> value(voxels.size());
  tbb::parallel_for(size_t(0), voxels.size(), [&](size_t i) { value[i] = std::abs(interpolate_phi(list, voxels[i])); });
  double total = 0.0;
  for (const float v : value) total += v;
  return total / double(voxels.size());
}

namespace {

// The points where φ changes sign along the +x, +y, +z edges of the band's voxels (linear
// interpolation): samples of the zero set no more than a voxel apart.
std::vector<glm::vec3> zero_crossings(const levelset::SortedTileList& list) {
  using levelset::kTileSide;
  std::vector<glm::vec3> out;
  std::mutex mutex;
  tbb::parallel_for(size_t(0), list.size(), [&](size_t t) {
    const levelset::TileEntry& e = list.active()[t];
    const levelset::TileCoord c = levelset::coord_of(e.key);
    float tile[levelset::kTileVoxels];
    list.read(e.id, tile);
    std::vector<glm::vec3> local;
    for (int z = 0; z < kTileSide; ++z)
      for (int y = 0; y < kTileSide; ++y)
        for (int x = 0; x < kTileSide; ++x) {
          const glm::ivec3 v(c.x * kTileSide + x, c.y * kTileSide + y, c.z * kTileSide + z);
          const float a = tile[levelset::SortedTileList::voxel_index(x, y, z)];
          for (int axis = 0; axis < 3; ++axis) {
            glm::ivec3 n = v;
            ++n[axis];
            const std::optional<float> b = levelset::value_at(list, n);
            if (!b || (a < 0.0f) == (*b < 0.0f)) continue;
            glm::vec3 p(v);
            p[axis] += a / (a - *b);
            local.push_back(p);
          }
        }
    const std::lock_guard lock(mutex);
    out.insert(out.end(), local.begin(), local.end());
  });
  return out;
}

}  // namespace

std::vector<float> surface_distances(const levelset::SortedTileList& list, std::span<const glm::vec3> voxels) {
  // NaN marks a sample outside the band until its zero crossing is found.
  std::vector<float> distance(voxels.size());
  const float gamma = list.gamma();
  tbb::parallel_for(size_t(0), voxels.size(), [&](size_t i) {
    // |φ| is a distance only strictly inside the band: stored tiles also hold voxels clamped to
    // ±γ, which read γ however far the surface is.
    const glm::ivec3 base(glm::floor(voxels[i]));
    bool all = true;
    for (int k = 0; k < 8 && all; ++k) {
      const glm::ivec3 c = base + glm::ivec3(k & 1, k >> 1 & 1, k >> 2 & 1);
      if (c.x < 0 || c.y < 0 || c.z < 0) {
        all = false;
        break;
      }
      const std::optional<float> v = levelset::value_at(list, c);
      all = v.has_value() && std::abs(*v) < gamma;
    }
    distance[i] = all ? std::abs(interpolate_phi(list, voxels[i])) : std::numeric_limits<float>::quiet_NaN();
  });
  std::vector<glm::vec3> outside;
  std::vector<size_t> which;
  for (size_t i = 0; i < voxels.size(); ++i)
    if (std::isnan(distance[i])) {
      outside.push_back(voxels[i]);
      which.push_back(i);
    }
  if (outside.empty()) return distance;
  const std::vector<glm::vec3> zeros = zero_crossings(list);
  if (zeros.empty()) {
    for (const size_t i : which) distance[i] = std::numeric_limits<float>::infinity();
    return distance;
  }
  kdtree::KdTreeParams tree_params;
  tree_params.k = 1;
  const kdtree::KdTree tree = kdtree::build_kdtree(zeros, tree_params);
  kdtree::KnnParams knn_params;
  knn_params.k = 1;
  const kdtree::KnnResult nearest = kdtree::knn(tree, outside, knn_params);
  for (size_t j = 0; j < which.size(); ++j) distance[which[j]] = nearest.distances[j];
  return distance;
}

}  // namespace meniscus::sim::reconstruct
