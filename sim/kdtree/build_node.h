#pragma once
// A node while the tree is built, as both backends store it (internal to sim/kdtree; plain
// data, compiled by g++ and nvcc). Nodes are numbered in the order they are created, BFS by
// stage; a node's children always have larger numbers than the node, which is what the
// preorder output's bottom-up and top-down passes rely on.
#include <cstdint>

#include "sim/kdtree/kdtree_rules.h"
#include "sim/kdtree/small_node_rules.h"

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

// The preorder node written for a build node; `index` is the right child's preorder address or
// the leaf's first point.
KD_HD inline KdNode output_node(const BuildNode& b, uint32_t index) {
  KdNode out;
  for (int a = 0; a < 3; ++a) {
    out.lo[a] = b.box.lo[a];
    out.hi[a] = b.box.hi[a];
  }
  out.split = b.split;
  out.axis = b.axis;
  out.count = b.count;
  out.index = index;
  return out;
}

// The build node for local node `l` of small root `root`, its children numbered `left` and
// `right` (ignored for a leaf).
KD_HD inline BuildNode small_build_node(const BuildNode& root, const SmallNode& l, uint32_t left, uint32_t right) {
  BuildNode node = root;
  node.box = l.box;
  node.cell = l.cell;
  node.mask = l.mask;
  node.count = uint32_t(popcount32(l.mask));
  node.depth = root.depth + l.depth;
  node.axis = l.axis;
  node.split = l.split;
  if (l.axis != kLeafAxis) {
    node.left = left;
    node.right = right;
  }
  return node;
}

}  // namespace meniscus::sim::kdtree
