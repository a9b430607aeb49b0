// build_triangle_kdtree (triangle_kdtree.h): the large-node stage level by level
// (large_triangle_stage.h); the small-node stage per small root in parallel, each subtree
// written in preorder on its own; then the preorder tree: the large stage's nodes walked once,
// each subtree copied in parallel to the place the walk gave it. Every decision depends on the
// node alone, so the tree does not depend on the thread count. A builder keeps every array
// (TriangleKdBuilder::Working, and the tree's) for its next build.
#include "sim/kdtree/triangle_kdtree.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <span>
#include <string>

#include "engine/core/error.h"
#include "sim/kdtree/large_triangle_stage.h"
#include "sim/kdtree/small_triangle_root.h"
#include "sim/kdtree/small_triangle_root_avx512.h"
#include "sim/kdtree/triangle_build_rules.h"
#include "sim/kdtree/triangle_kdtree_build.h"

namespace meniscus::sim::kdtree {
namespace {

using Clock = std::chrono::steady_clock;

// A small root's subtree in preorder with indices of its own: an interior node's right child
// counts from the subtree's first node, a leaf's first entry from its first leaf entry.
struct Subtree {
  std::vector<TriangleKdNode> nodes;
  std::vector<uint32_t> leaf_triangles;
};

// What SmallTriangleRoot::split writes through (small_triangle_root.h).
class SubtreeSink {
 public:
  SubtreeSink(const uint32_t* triangles, Subtree& out) : triangles_(triangles), out_(out) {}

  uint32_t interior(uint32_t axis, float split) {
    out_.nodes.push_back(TriangleKdNode::interior(axis, split, 0));  // its right child comes later
    return uint32_t(out_.nodes.size() - 1);
  }
  uint32_t leaf(uint64_t set) {
    const uint32_t first = uint32_t(out_.leaf_triangles.size());
    // The root's triangles ascend by id, and so do a mask's bits.
    for (uint64_t bits = set; bits; bits &= bits - 1) out_.leaf_triangles.push_back(triangles_[lowest_bit64(bits)]);
    out_.nodes.push_back(TriangleKdNode::leaf(first, uint32_t(out_.leaf_triangles.size()) - first));
    return uint32_t(out_.nodes.size() - 1);
  }
  void right_child(uint32_t parent, uint32_t child) {
    const TriangleKdNode n = out_.nodes[parent];
    out_.nodes[parent] = TriangleKdNode::interior(n.axis(), n.split(), child);
  }

 private:
  const uint32_t* triangles_;
  Subtree& out_;
};

bool small_stage_avx512(const TriangleKdParams& params) { return params.cpu_simd && small_stage_avx512_available(); }

// best_split_avx512 as SmallTriangleRoot::split's choice.
auto best_split_avx512_of(const SmallTriangleRoot& root) {
  return [&root](const Box& box, uint64_t set, const TriangleKdParams& params) {
    return best_split_avx512(root, box, set, params);
  };
}

// `subtree` refilled, its memory reused.
void split_small_root(const LargeStage& large, const LargeStageNode& root, const TriangleKdParams& params,
                      Subtree& subtree) {
  SmallTriangleRoot small;
  small.n = root.count;
  const Box* clipped = large.small_clipped.data() + root.first;
  for (uint32_t axis = 0; axis < 3; ++axis)
    for (uint32_t i = 0; i < small.n; ++i)
      small.lo[axis][i] = clipped[i].lo[axis], small.hi[axis][i] = clipped[i].hi[axis];
  subtree.nodes.clear();
  subtree.leaf_triangles.clear();
  SubtreeSink sink(large.small_triangles.data() + root.first, subtree);
  if (small_stage_avx512(params)) {
    prepare_avx512(small);
    small.split(root.box, root.depth, params, sink, best_split_avx512_of(small));
  } else {
    small.prepare();
    small.split(root.box, root.depth, params, sink);
  }
}

// The preorder tree: the large stage's nodes written by a walk, each small root's subtree
// placed where the walk reaches it and copied there afterwards, all subtrees in parallel.
class PreorderAssembly {
 public:
  // `subtrees[k]` is small root k's.
  PreorderAssembly(const LargeStage& large, std::span<const Subtree> subtrees, TriangleKdTree& tree)
      : large_(large), subtrees_(subtrees), tree_(tree) {}

  void write() {
    size_t nodes = 0, entries = large_.leaf_triangles.size();
    for (const LargeStageNode& n : large_.nodes) nodes += n.kind != LargeStageNode::Kind::kSmallRoot;
    for (const Subtree& s : subtrees_) nodes += s.nodes.size(), entries += s.leaf_triangles.size();
    if (nodes > TriangleKdNode::kMaxIndex || entries > TriangleKdNode::kMaxIndex) throw_tree_too_large();
    tree_.nodes.resize(nodes);
    tree_.leaf_triangles.resize(entries);
    place_.resize(subtrees_.size());
    walk(0);
    tbb::parallel_for(size_t(0), subtrees_.size(), [&](size_t k) { copy(subtrees_[k], place_[k]); });
  }

 private:
  struct Place {
    uint32_t node = 0, entry = 0;  // the subtree's first node and first leaf entry in the tree
  };

  void walk(uint32_t id) {
    const LargeStageNode& b = large_.nodes[id];
    if (b.kind == LargeStageNode::Kind::kSmallRoot) {
      const Subtree& s = subtrees_[b.small_root];
      place_[b.small_root] = {node_, entry_};
      node_ += uint32_t(s.nodes.size());
      entry_ += uint32_t(s.leaf_triangles.size());
    } else if (b.kind == LargeStageNode::Kind::kLeaf) {
      tree_.nodes[node_++] = TriangleKdNode::leaf(entry_, b.count);
      std::copy_n(large_.leaf_triangles.begin() + b.first, b.count, tree_.leaf_triangles.begin() + entry_);
      entry_ += b.count;
    } else {
      const uint32_t at = node_++;
      walk(b.left);
      tree_.nodes[at] = TriangleKdNode::interior(b.axis, b.split, node_);
      walk(b.right);
    }
  }

  void copy(const Subtree& s, const Place& p) {
    for (size_t k = 0; k < s.nodes.size(); ++k) {
      const TriangleKdNode n = s.nodes[k];
      tree_.nodes[p.node + k] = n.is_leaf()
                                    ? TriangleKdNode::leaf(p.entry + n.right_or_first(), n.count())
                                    : TriangleKdNode::interior(n.axis(), n.split(), p.node + n.right_or_first());
    }
    std::copy(s.leaf_triangles.begin(), s.leaf_triangles.end(), tree_.leaf_triangles.begin() + p.entry);
  }

  const LargeStage& large_;
  std::span<const Subtree> subtrees_;
  TriangleKdTree& tree_;
  std::vector<Place> place_;
  uint32_t node_ = 0, entry_ = 0;
};

}  // namespace

struct TriangleKdBuilder::Working {
  TriangleInput input;
  LargeStage large;
  std::vector<Subtree> subtrees;
};

TriangleKdBuilder::TriangleKdBuilder() : working_(std::make_unique<Working>()) {}
TriangleKdBuilder::~TriangleKdBuilder() = default;
TriangleKdBuilder::TriangleKdBuilder(TriangleKdBuilder&&) noexcept = default;
TriangleKdBuilder& TriangleKdBuilder::operator=(TriangleKdBuilder&&) noexcept = default;

const TriangleKdTree& TriangleKdBuilder::build(std::span<const glm::vec3> vertices, std::span<const uint32_t> indices,
                                               const TriangleKdParams& params) {
  try {
    if (!working_) working_ = std::make_unique<Working>();  // moved from
    build_tree(vertices, indices, params);
  } catch (...) {
    tree_ = {};
    throw;
  }
  return tree_;
}

// The tree's arrays are resized, not cleared: a build the size of the last writes over them.
void TriangleKdBuilder::build_tree(std::span<const glm::vec3> vertices, std::span<const uint32_t> indices,
                                   const TriangleKdParams& params) {
  const Clock::time_point start = Clock::now();
  TriangleKdTree& tree = tree_;
  tree.stats = {};
  validate_triangle_kd_params(params);
  TriangleInput& input = working_->input;
  gather_triangles(vertices, indices, input);
  tree.stats.skipped = input.skipped;
  tree.stats.triangles = uint32_t(input.usable.size());
  if (input.usable.empty()) {
    tree.nodes.clear();
    tree.leaf_triangles.clear();
    tree.leaf_geometry.clear();
    tree.lo = tree.hi = glm::vec3(0.0f);
    return;
  }

  LargeStage& large = working_->large;
  run_large_stage(input, params, large);
  tree.stats.large_levels = large.levels;
  tree.stats.small_roots = uint32_t(large.small_roots.size());
  std::vector<Subtree>& subtrees = working_->subtrees;
  if (subtrees.size() < large.small_roots.size()) subtrees.resize(large.small_roots.size());
  tbb::parallel_for(size_t(0), large.small_roots.size(),
                    [&](size_t k) { split_small_root(large, large.nodes[large.small_roots[k]], params, subtrees[k]); });

  tree.lo = input.bounds.lo;
  tree.hi = input.bounds.hi;
  PreorderAssembly(large, {subtrees.data(), large.small_roots.size()}, tree).write();
  if (params.stats) add_preorder_stats(tree, params.traversal_cost);
  write_leaf_geometry(input, tree);
  tree.stats.build_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

TriangleKdStats measure_triangle_kdtree(const TriangleKdTree& tree, float traversal_cost) {
  TriangleKdStats stats = tree.stats;
  stats.leaves = stats.empty_leaves = stats.max_depth = 0;
  stats.references = 0;
  stats.sah_cost = 0.0;
  count_preorder(tree, traversal_cost, stats);
  return stats;
}

const char* triangle_build_kernels(const TriangleKdParams& params) {
  return small_stage_avx512(params) ? "avx512" : "portable";
}

TriangleKdTree build_triangle_kdtree(std::span<const glm::vec3> vertices, std::span<const uint32_t> indices,
                                     const TriangleKdParams& params) {
  TriangleKdBuilder builder;
  builder.build(vertices, indices, params);
  return builder.take();
}

}  // namespace meniscus::sim::kdtree
