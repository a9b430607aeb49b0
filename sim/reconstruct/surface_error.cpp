#include "sim/reconstruct/surface_error.h"

#include <tbb/parallel_for.h>

#include <cmath>
#include <optional>
#include <vector>

#include <glm/glm.hpp>

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

}  // namespace meniscus::sim::reconstruct
