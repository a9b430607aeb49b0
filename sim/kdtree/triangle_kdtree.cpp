// build_triangle_kdtree (triangle_kdtree.h): the large-node stage level by level, each level's
// nodes in parallel; the small-node stage per small root in parallel; then preorder output.
// Every decision depends on the node alone, and children are numbered after each parallel
// step in node order, so the tree does not depend on the thread count.
#include "sim/kdtree/triangle_kdtree.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

#include "engine/core/error.h"
#include "sim/kdtree/small_triangle_root.h"
#include "sim/kdtree/triangle_build_rules.h"
#include "sim/kdtree/triangle_kdtree_build.h"

namespace meniscus::sim::kdtree {
namespace {

using Clock = std::chrono::steady_clock;

// A node of the large-node stage: its triangles with their boxes clipped to it.
struct LargeNode {
  uint32_t id = 0;  // in the build's node vector
  uint32_t depth = 0;
  std::vector<uint32_t> triangles;
  std::vector<Box> clipped;
};

// Where a large node goes: a leaf, or a split into two child nodes (their triangles clipped).
struct LargeSplit {
  LargeTriangleSplit rule;
  LargeNode left, right;
};

// One split of a large node (Algorithm 2, triangle_build_rules.h).
LargeSplit split_large(const LargeNode& node, const Box& box, const std::vector<TriangleCorners>& corners,
                       const TriangleKdParams& params) {
  Box tight = node.clipped[0];
  for (const Box& b : node.clipped) tight.grow(b);
  LargeSplit out{choose_large_triangle_split(tight, box, node.depth, params)};
  if (out.rule.leaf) return out;
  out.left.depth = out.right.depth = node.depth + 1;
  const size_t n = node.triangles.size();
  for (LargeNode* child : {&out.left, &out.right}) {  // at most all of them each: no regrowth
    child->triangles.reserve(n);
    child->clipped.reserve(n);
  }
  for (size_t i = 0; i < node.triangles.size(); ++i) {
    const uint32_t t = node.triangles[i];
    const TriangleSides sides = classify_triangle(corners[t], node.clipped[i], out.rule);
    if (sides.left) {
      out.left.triangles.push_back(t);
      out.left.clipped.push_back(sides.left_box);
    }
    if (sides.right) {
      out.right.triangles.push_back(t);
      out.right.clipped.push_back(sides.right_box);
    }
  }
  if (split_gains_nothing(out.rule, uint32_t(n), uint32_t(out.left.triangles.size()),
                          uint32_t(out.right.triangles.size())))
    out.rule.leaf = true;
  return out;
}

// The small-node stage's subtree as build nodes, numbered in preorder from 0 (the small root).
class SubtreeSink {
 public:
  explicit SubtreeSink(const std::vector<uint32_t>& triangles) : triangles_(triangles) {}

  uint32_t interior(uint32_t axis, float split) {
    nodes.push_back({});
    TriangleBuildNode& n = nodes.back();
    n.axis = axis;
    n.split = split;
    n.left = uint32_t(nodes.size());
    return uint32_t(nodes.size() - 1);
  }
  uint32_t leaf(uint64_t set) {
    nodes.push_back({});
    // The root's triangles ascend by id, and so do a mask's bits.
    for (uint64_t bits = set; bits; bits &= bits - 1) nodes.back().triangles.push_back(triangles_[lowest_bit64(bits)]);
    return uint32_t(nodes.size() - 1);
  }
  void right_child(uint32_t parent, uint32_t child) { nodes[parent].right = child; }

  std::vector<TriangleBuildNode> nodes;

 private:
  const std::vector<uint32_t>& triangles_;
};

std::vector<TriangleBuildNode> split_small_root(const LargeNode& root, const Box& box, const TriangleKdParams& params) {
  SmallTriangleRoot small;
  small.n = uint32_t(root.triangles.size());
  for (uint32_t axis = 0; axis < 3; ++axis)
    for (uint32_t i = 0; i < small.n; ++i)
      small.lo[axis][i] = root.clipped[i].lo[axis], small.hi[axis][i] = root.clipped[i].hi[axis];
  small.prepare();
  SubtreeSink sink(root.triangles);
  small.split(box, root.depth, params, sink);
  sink.nodes[0].box = box;  // the other nodes' boxes are read from the splits (add_preorder_stats)
  return std::move(sink.nodes);
}

}  // namespace

TriangleKdTree build_triangle_kdtree(std::span<const glm::vec3> vertices, std::span<const uint32_t> indices,
                                     const TriangleKdParams& params) {
  validate_triangle_kd_params(params);
  const Clock::time_point start = Clock::now();
  TriangleInput input = gather_triangles(vertices, indices);
  TriangleKdTree tree;
  tree.stats.skipped = input.skipped;
  tree.stats.triangles = uint32_t(input.usable.size());
  if (input.usable.empty()) return tree;
  const std::vector<TriangleCorners>& corners = input.corners;
  const Box root_box = input.bounds;
  LargeNode root;
  root.triangles = input.usable;
  root.clipped = input.boxes;

  std::vector<TriangleBuildNode> build{{root_box}};
  std::vector<LargeNode> active, small;
  (root.triangles.size() > params.large_node_triangles ? active : small).push_back(std::move(root));

  // Large-node stage, a level at a time.
  while (!active.empty()) {
    ++tree.stats.large_levels;
    std::vector<LargeSplit> splits(active.size());
    tbb::parallel_for(size_t(0), active.size(), [&](size_t i) {
      splits[i] = split_large(active[i], build[active[i].id].box, corners, params);
    });
    std::vector<LargeNode> next;
    for (size_t i = 0; i < active.size(); ++i) {
      LargeSplit& s = splits[i];
      const uint32_t parent = active[i].id;
      if (s.rule.leaf) {  // a node's triangles ascend by id, as the input's usable ones do
        build[parent].triangles = std::move(active[i].triangles);
        continue;
      }
      s.left.id = uint32_t(build.size());
      s.right.id = s.left.id + 1;
      build[parent].axis = s.rule.axis;
      build[parent].split = s.rule.split;
      build[parent].left = s.left.id;
      build[parent].right = s.right.id;
      build.push_back({s.rule.left_box});
      build.push_back({s.rule.right_box});
      for (LargeNode* child : {&s.left, &s.right}) {
        if (child->triangles.empty()) continue;  // an empty leaf
        (child->triangles.size() > params.large_node_triangles ? next : small).push_back(std::move(*child));
      }
    }
    active = std::move(next);
  }

  // Small-node stage, each small root's subtree on its own.
  tree.stats.small_roots = uint32_t(small.size());
  std::vector<std::vector<TriangleBuildNode>> subtrees(small.size());
  tbb::parallel_for(size_t(0), small.size(),
                    [&](size_t i) { subtrees[i] = split_small_root(small[i], build[small[i].id].box, params); });
  // Each subtree's root replaces its small root's node; the rest is appended, subtree after
  // subtree, re-indexed: subtree i's node k > 0 lands at first[i] + k - 1.
  std::vector<size_t> first(small.size() + 1, build.size());
  for (size_t i = 0; i < small.size(); ++i) first[i + 1] = first[i] + subtrees[i].size() - 1;
  build.resize(first.back());
  tbb::parallel_for(size_t(0), small.size(), [&](size_t i) {
    std::vector<TriangleBuildNode>& sub = subtrees[i];
    const uint32_t base = uint32_t(first[i]) - 1;
    for (TriangleBuildNode& n : sub)
      if (n.axis != kTriangleLeaf) {  // children are never the subtree's root (index 0)
        n.left += base;
        n.right += base;
      }
    build[small[i].id] = std::move(sub[0]);
    std::move(sub.begin() + 1, sub.end(), build.begin() + std::ptrdiff_t(first[i]));
  });

  write_tree(build, input, params.traversal_cost, tree);
  tree.stats.build_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  return tree;
}

}  // namespace meniscus::sim::kdtree
