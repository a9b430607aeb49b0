// Small-node stage (Zhou et al. 2008, Algorithm 4 with VVH, §5.1). The CPU backend gives each
// small root one task that splits its subtree level by level; the paper's level-by-level pass
// over all small nodes is there to fill a GPU, and the nodes it creates, and so the preorder
// output, are the same either way. The subtrees are numbered after all large nodes, root by
// root, so the numbering does not depend on which thread built what.
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "sim/kdtree/build_state.h"
#include "sim/kdtree/small_node_rules.h"

namespace meniscus::sim::kdtree {
namespace {

void load_root(const BuildState& state, const BuildNode& node, SmallRoot& root) {
  const PointArrays& p = state.points[node.buffer];
  root.n = node.count;
  for (uint32_t i = 0; i < node.count; ++i) {
    root.c[0][i] = p.x[node.begin + i];
    root.c[1][i] = p.y[node.begin + i];
    root.c[2][i] = p.z[node.begin + i];
  }
  preprocess_small_root(root);
}

std::vector<SmallNode> split_small_root(const BuildState& state, const BuildNode& node, float radius,
                                        float traversal_cost) {
  SmallRoot root;
  load_root(state, node, root);
  SmallNode local[kSmallSubtreeMax];
  const uint32_t count = split_small_subtree(root, node.cell, node.box, radius, traversal_cost, local);
  return std::vector<SmallNode>(local, local + count);
}

}  // namespace

float estimate_query_radius(const BuildState& state, uint32_t k) {
  // Each root's say (small_root_radius, shared with the CUDA build), then the median of those
  // that say something, as the CUDA build takes it.
  std::vector<double> radii(state.small_roots.size());
  tbb::parallel_for(size_t(0), radii.size(), [&](size_t r) {
    const BuildNode& root = state.nodes[state.small_roots[r]];
    radii[r] = small_root_radius(root.box, root.count, k);
  });
  radii.erase(std::remove(radii.begin(), radii.end(), -1.0), radii.end());
  if (radii.empty()) return 0.0f;
  std::nth_element(radii.begin(), radii.begin() + radii.size() / 2, radii.end());
  return float(radii[radii.size() / 2]);
}

void run_small_node_stage(BuildState& state, float radius, float traversal_cost) {
  const size_t roots = state.small_roots.size();
  std::vector<std::vector<SmallNode>> subtrees(roots);
  tbb::parallel_for(size_t(0), roots, [&](size_t r) {
    subtrees[r] = split_small_root(state, state.nodes[state.small_roots[r]], radius, traversal_cost);
  });

  // Number each root's nodes after all earlier ones; the root keeps its own number.
  std::vector<uint32_t> base(roots + 1);
  base[0] = uint32_t(state.nodes.size());
  for (size_t r = 0; r < roots; ++r) base[r + 1] = base[r] + uint32_t(subtrees[r].size() - 1);
  state.nodes.resize(base[roots]);
  tbb::parallel_for(size_t(0), roots, [&](size_t r) {
    const uint32_t root_id = state.small_roots[r];
    const BuildNode root = state.nodes[root_id];
    auto global = [&](uint32_t local) { return local == 0 ? root_id : base[r] + local - 1; };
    for (uint32_t i = 0; i < subtrees[r].size(); ++i) {
      const SmallNode& l = subtrees[r][i];
      state.nodes[global(i)] = small_build_node(root, l, global(l.left), global(l.right));
    }
  });
  uint32_t levels = 0;
  for (const auto& subtree : subtrees) levels = std::max(levels, subtree.back().depth + 1);
  state.stats.small_levels = levels;
  state.stats.small_roots = uint32_t(roots);
}

}  // namespace meniscus::sim::kdtree
