// Output stage (Zhou et al. 2008, Algorithm 5): a bottom-up pass gives every subtree's node
// count, a top-down pass gives every node its preorder address and every leaf the offset of its
// points, and then nodes and points are written in parallel. Children are numbered after their
// parents, so reverse and forward numbering order are valid bottom-up and top-down orders; the
// passes are a few hundred thousand additions and stay sequential.
#include <tbb/parallel_for.h>

#include <algorithm>

#include "sim/kdtree/build_state.h"

namespace meniscus::sim::kdtree {

void write_preorder(const BuildState& state, KdTree& tree) {
  const auto& nodes = state.nodes;
  const size_t n = nodes.size();
  std::vector<uint32_t> subtree(n), address(n), offset(n);
  for (size_t i = n; i-- > 0;)
    subtree[i] = nodes[i].axis == kLeafAxis ? 1 : 1 + subtree[nodes[i].left] + subtree[nodes[i].right];
  address[0] = 0;
  offset[0] = 0;
  for (size_t i = 0; i < n; ++i) {
    const BuildNode& node = nodes[i];
    if (node.axis == kLeafAxis) continue;
    address[node.left] = address[i] + 1;
    address[node.right] = address[i] + 1 + subtree[node.left];
    offset[node.left] = offset[i];
    offset[node.right] = offset[i] + nodes[node.left].count;
  }

  const size_t points = state.points[0].x.size();
  tree.nodes.resize(n);
  tree.x.resize(points);
  tree.y.resize(points);
  tree.z.resize(points);
  tree.ids.resize(points);
  tbb::parallel_for(size_t(0), n, [&](size_t i) {
    const BuildNode& b = nodes[i];
    tree.nodes[address[i]] = output_node(b, b.axis == kLeafAxis ? offset[i] : address[b.right]);
    if (b.axis != kLeafAxis) return;
    // Gather the leaf's points, in the order they had in their small root or large node.
    const PointArrays& src = state.points[b.buffer];
    uint32_t to = offset[i];
    auto put = [&](uint32_t from) {
      tree.x[to] = src.x[from];
      tree.y[to] = src.y[from];
      tree.z[to] = src.z[from];
      tree.ids[to] = src.id[from];
      ++to;
    };
    if (b.small) {
      for (uint32_t m = b.mask; m; m &= m - 1) put(b.begin + uint32_t(lowest_bit32(m)));
    } else {
      for (uint32_t p = b.begin; p < b.begin + b.count; ++p) put(p);
    }
  });

  uint32_t leaves = 0, depth = 0;
  for (const BuildNode& b : nodes) {
    leaves += b.axis == kLeafAxis;
    depth = std::max(depth, b.depth);
  }
  tree.stats.leaves = leaves;
  tree.stats.max_depth = depth;
}

}  // namespace meniscus::sim::kdtree
