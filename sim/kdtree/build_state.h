#pragma once
// What the build stages hand each other (internal to sim/kdtree). Nodes are numbered in the
// order they are created, BFS by stage; a node's children always have larger numbers than the
// node, which is what the preorder output's bottom-up and top-down passes rely on.
#include <cstdint>
#include <vector>

#include "sim/kdtree/kdtree.h"

namespace meniscus::sim::kdtree {

struct BuildNode {
  Aabb box;   // tight box of the node's points
  Aabb cell;  // the space the node owns (its parent's cell split, then empty space cut)
  float split = 0.0f;
  uint32_t axis = kLeafAxis;
  uint32_t left = 0, right = 0;  // children's build numbers
  // Large nodes and small roots: points [begin, begin + count) of the large-stage array
  // `buffer`. Small nodes below a root: the root's range, narrowed by `mask`.
  uint32_t begin = 0, count = 0;
  uint32_t mask = 0;         // small nodes: bit i = point begin + i of the small root
  uint32_t depth = 0;
  uint8_t buffer = 0;        // which of the two point arrays holds the points
  uint8_t small = 0;         // 1 for small roots and the nodes below them
};

// Flat coordinate arrays and input indices, one set per side of the large stage's double
// buffering.
struct PointArrays {
  std::vector<float> x, y, z;
  std::vector<uint32_t> id;
  void resize(size_t n) {
    x.resize(n);
    y.resize(n);
    z.resize(n);
    id.resize(n);
  }
};

struct BuildState {
  PointArrays points[2];
  std::vector<BuildNode> nodes;
  std::vector<uint32_t> small_roots;  // build numbers, in creation order
  KdBuildStats stats;
};

// Large-node stage (Algorithm 2 for points): from the root over all points to small roots.
void run_large_node_stage(BuildState& state);

// R of Appendix A when the caller gave none: the median over small roots of the radius that
// holds k points at the root's density, measured in as many dimensions as its points span (a
// sample of a surface is dense in two, not in three).
float estimate_query_radius(const BuildState& state, uint32_t k);

// Small-node stage (Algorithm 4 with VVH): splits each small root's subtree by exact VVH.
void run_small_node_stage(BuildState& state, float radius, float traversal_cost);

// Output stage (Algorithm 5): nodes in preorder, points gathered leaf by leaf.
void write_preorder(const BuildState& state, KdTree& tree);

}  // namespace meniscus::sim::kdtree
