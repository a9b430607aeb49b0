#include "sim/reconstruct/sample_weights.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "sim/kdtree/kdtree.h"
#include "sim/kdtree/knn.h"

namespace meniscus::sim::reconstruct {

std::vector<float> area_weights(std::span<const glm::vec3> points, uint32_t k, SampleWeightStats* stats) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<float> weights(points.size(), 1.0f);
  if (points.size() <= k + 1) return weights;
  kdtree::KdTreeParams tree_params;
  tree_params.k = k + 1;  // each point is its own nearest neighbour
  const kdtree::KdTree tree = kdtree::build_kdtree(points, tree_params);
  kdtree::KnnParams knn_params;
  knn_params.k = k + 1;
  const kdtree::KnnResult neighbours = kdtree::knn_all(tree, knn_params);
  std::vector<float> area(points.size());
  tbb::parallel_for(size_t(0), points.size(), [&](size_t i) {
    const float r = neighbours.radius(i);
    area[i] = r * r;
  });
  std::vector<float> sorted = area;
  std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
  const float median = sorted[sorted.size() / 2];
  if (!(median > 0.0f)) return weights;  // most samples duplicated k times: no area to share out
  size_t high = 0, low = 0;
  for (size_t i = 0; i < points.size(); ++i) {
    const float ratio = area[i] / median;
    weights[i] = std::clamp(ratio, 1.0f / kMaxWeightRatio, kMaxWeightRatio);
    high += ratio >= kMaxWeightRatio;
    low += ratio <= 1.0f / kMaxWeightRatio;
  }
  if (stats) {
    stats->median_radius = std::sqrt(median);
    stats->clamped_high = float(high) / float(points.size());
    stats->clamped_low = float(low) / float(points.size());
    stats->knn_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  }
  return weights;
}

}  // namespace meniscus::sim::reconstruct
