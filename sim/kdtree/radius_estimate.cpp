// Algorithm 7's PRECOMPUTERADIUS on the CPU.
#include "sim/kdtree/radius_estimate.h"

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <limits>

#include "sim/kdtree/knn_search.h"

namespace meniscus::sim::kdtree {
namespace {

float node_extent_radius(const KdNode& node) {
  return 0.5f * std::sqrt(distance2(node.lo[0], node.lo[1], node.lo[2], node.hi[0], node.hi[1], node.hi[2]));
}

// Preorder nodes for which a radius is computed: the topmost with radius < alpha R and their
// descendants down to `levels` levels in all.
std::vector<uint32_t> radius_nodes(const KdTree& tree, float limit, uint32_t levels) {
  std::vector<uint32_t> work;
  if (levels == 0) return work;
  std::vector<std::pair<uint32_t, uint32_t>> stack{{0u, 0u}};  // node, level below a topmost node (0: above)
  while (!stack.empty()) {
    const auto [i, level] = stack.back();
    stack.pop_back();
    const KdNode& node = tree.nodes[i];
    uint32_t below = level;
    if (below == 0 && node_extent_radius(node) < limit) below = 1;
    if (below > 0) work.push_back(i);
    if (node.axis == kLeafAxis || below == levels) continue;
    stack.push_back({node.index, below == 0 ? 0 : below + 1});
    stack.push_back({i + 1, below == 0 ? 0 : below + 1});
  }
  std::sort(work.begin(), work.end());
  return work;
}

}  // namespace

RadiusTable precompute_radii(const KdTree& tree, uint32_t k, const KnnParams& params) {
  RadiusTable table;
  // The paper's R is conservative by construction (from a minimal density); the tree's R is a
  // median, short of the k-th distance for about half of the points, and a short r0 costs a
  // second range search. Twice the median covers nearly all of them. Without an R (all points
  // coincide) the root box's diagonal holds every point.
  const KdNode& root = tree.nodes[0];
  table.radius = tree.query_radius > 0.0f ? 2.0f * tree.query_radius : 2.0f * node_extent_radius(root);
  table.node_radius.assign(tree.nodes.size(), std::numeric_limits<float>::infinity());
  table.node_centre.assign(3 * tree.nodes.size(), 0.0f);
  const std::vector<uint32_t> work = radius_nodes(tree, params.alpha * table.radius, params.estimate_levels);
  table.computed = uint32_t(work.size());
  const QueryConfig config{k, params.histogram_bins, params.iterations};
  tbb::enumerable_thread_specific<SearchScratch> scratch([&] { return SearchScratch(tree); });
  tbb::parallel_for(tbb::blocked_range<size_t>(0, work.size(), 64), [&](const tbb::blocked_range<size_t>& range) {
    SearchScratch& s = scratch.local();
    std::vector<uint32_t> indices(k);
    std::vector<float> distances(k);
    for (size_t w = range.begin(); w != range.end(); ++w) {
      const uint32_t i = work[w];
      const KdNode& node = tree.nodes[i];
      float* c = &table.node_centre[3 * size_t(i)];
      for (int a = 0; a < 3; ++a) c[a] = 0.5f * (node.lo[a] + node.hi[a]);
      table.node_radius[i] = search_knn(tree, c[0], c[1], c[2], table.radius, config, s, indices.data(), distances.data());
    }
  });
  return table;
}

}  // namespace meniscus::sim::kdtree
