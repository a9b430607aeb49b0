#pragma once
// A kd-tree over points built after Zhou, Hou, Wang, Guo, "Real-Time KD-Tree Construction on
// Graphics Hardware" (2008): nodes are created in BFS order, first a large-node stage (spatial
// median plus empty-space splitting, bounding boxes by chunked reductions, points moved by a
// list split), then a small-node stage (exact VVH over the points of each small root, point
// sets as bit masks), and the result is laid out in preorder. The CPU backend here is
// multi-threaded with TBB and gives the same tree for any thread count; the CUDA backend
// (kdtree_cuda.h) gives the same tree on a GPU.
#include <cstdint>
#include <glm/vec3.hpp>
#include <span>
#include <vector>

#include "engine/core/uninitialized_vector.h"
#include "sim/kdtree/kdtree_rules.h"

namespace meniscus::sim::kdtree {


struct KdTreeParams {
  // k the tree is tuned for: the VVH radius R is the estimated k-nearest-neighbour radius.
  uint32_t k = 16;
  // R of the VVH cost (§5.1, Appendix A); 0: estimated from the small roots' point densities.
  float query_radius = 0.0f;
  // C_ts: the cost of visiting a node, in units of testing one point. The CPU search tests a
  // leaf's points in vectorised batches and shares each node visit among a packet of queries,
  // so points are cheap beside nodes: of 4, 8 and 12, 8 gave the fastest build plus search in
  // meniscus-bench kdtree (1M points, k = 16, 2 threads). Both backends build with it, so that
  // they build the same tree; it has not been measured on a GPU.
  float traversal_cost = 8.0f;
};

struct KdBuildStats {
  uint32_t large_levels = 0;  // BFS rounds of the large-node stage
  uint32_t small_levels = 0;  // deepest small-node subtree, in levels
  uint32_t small_roots = 0;
  uint32_t leaves = 0;
  uint32_t forced_leaves = 0;  // large nodes no split could separate (coincident points)
  uint32_t max_depth = 0;
  double large_ms = 0, small_ms = 0, output_ms = 0;
};

struct KdTree {
  UninitializedVector<KdNode> nodes;  // preorder, nodes[0] is the root (empty when there are no points)
  // Points in leaf order (each leaf's points are contiguous), as flat coordinate arrays.
  UninitializedVector<float> x, y, z;
  UninitializedVector<uint32_t> ids;  // input index of each point in leaf order
  float query_radius = 0.0f;  // the R the tree was built with
  uint32_t k = 0;
  KdBuildStats stats;

  size_t size() const { return ids.size(); }
  bool is_leaf(uint32_t node) const { return nodes[node].axis == kLeafAxis; }
};

// Throws InputError naming the first point (`what`: "point", "query") with a NaN or infinite
// coordinate, or when there are 2^32 points or more.
void validate_points(std::span<const glm::vec3> points, const char* what = "point");

// Throws InputError for k = 0, or a negative or non-finite query_radius or traversal_cost.
void validate_build_params(const KdTreeParams& params);

// The CPU backend. Validates the points first.
KdTree build_kdtree(std::span<const glm::vec3> points, const KdTreeParams& params = {});

}  // namespace meniscus::sim::kdtree
