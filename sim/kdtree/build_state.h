#pragma once
// What the build stages hand each other (internal to sim/kdtree). Nodes are numbered in the
// order they are created, BFS by stage; a node's children always have larger numbers than the
// node, which is what the preorder output's bottom-up and top-down passes rely on.
#include <cstdint>
#include <vector>

#include "engine/core/uninitialized_vector.h"
#include "sim/kdtree/build_node.h"
#include "sim/kdtree/kdtree.h"

namespace meniscus::sim::kdtree {

// Flat coordinate arrays and input indices, one set per side of the large stage's double
// buffering.
struct PointArrays {
  UninitializedVector<float> x, y, z;
  UninitializedVector<uint32_t> id;
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
