// The triangle kd-tree builders' shared input and output (triangle_kdtree_build.h).
#include "sim/kdtree/triangle_kdtree_build.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "engine/core/error.h"

namespace meniscus::sim::kdtree {
namespace {

// Preorder output (§3.3): a node, its left subtree, its right subtree.
class PreorderWriter {
 public:
  PreorderWriter(const std::vector<TriangleBuildNode>& build, TriangleKdTree& tree) : build_(build), tree_(tree) {}

  void write(uint32_t id) {
    const TriangleBuildNode& b = build_[id];
    const uint32_t at = uint32_t(tree_.nodes.size());
    tree_.nodes.push_back(TriangleKdNode::leaf(0, 0));  // filled below, once its index is known
    if (b.axis == kTriangleLeaf) {
      tree_.nodes[at] = TriangleKdNode::leaf(index(tree_.leaf_triangles.size()), uint32_t(b.triangles.size()));
      tree_.leaf_triangles.insert(tree_.leaf_triangles.end(), b.triangles.begin(), b.triangles.end());
      return;
    }
    write(b.left);
    tree_.nodes[at] = TriangleKdNode::interior(b.axis, b.split, index(tree_.nodes.size()));
    write(b.right);
  }

 private:
  static uint32_t index(size_t i) {
    if (i > TriangleKdNode::kMaxIndex) throw_tree_too_large();
    return uint32_t(i);
  }

  const std::vector<TriangleBuildNode>& build_;
  TriangleKdTree& tree_;
};

}  // namespace

void validate_triangle_kd_params(const TriangleKdParams& params) {
  if (params.large_node_triangles < 1 || params.large_node_triangles > 64)
    throw InputError("triangle kd-tree: large_node_triangles must be in [1, 64] (small roots are 64-bit masks)");
  if (!(params.empty_space_ratio > 0.0f && params.empty_space_ratio < 1.0f))
    throw InputError("triangle kd-tree: empty_space_ratio must be in (0, 1)");
  if (!(params.traversal_cost >= 0.0f && std::isfinite(params.traversal_cost)))
    throw InputError("triangle kd-tree: traversal_cost must be finite and >= 0");
  if (params.max_depth < 1 || params.max_depth > 64)
    throw InputError("triangle kd-tree: max_depth must be in [1, 64] (the traversals' stacks hold 64 levels)");
}

void throw_tree_too_large() {
  throw InputError("triangle kd-tree: more than 2^30 nodes or leaf entries (split the mesh)");
}

void validate_index_count(size_t count) {
  if (count % 3 != 0)
    throw InputError("triangle kd-tree: " + std::to_string(count) + " indices is not three per triangle");
  // The CUDA build names a corner by its 32-bit position 3 t + k; both builds refuse alike.
  if (count >= UINT32_MAX) throw InputError("triangle kd-tree: 2^32 indices or more");
}

void throw_index_out_of_range(size_t position, uint32_t vertex, size_t vertex_count) {
  throw InputError("triangle kd-tree: triangle " + std::to_string(position / 3) + " names vertex " +
                   std::to_string(vertex) + " of " + std::to_string(vertex_count));
}

void gather_triangles(std::span<const glm::vec3> vertices, std::span<const uint32_t> indices, TriangleInput& input) {
  validate_index_count(indices.size());
  for (size_t i = 0; i < indices.size(); ++i)
    if (indices[i] >= vertices.size()) throw_index_out_of_range(i, indices[i], vertices.size());
  // In blocks, in parallel: each block's corners and its usable triangles counted; then each
  // block's usable ones written at its offset (the counts scanned in block order), so they
  // ascend by id, with the block's bounds.
  constexpr size_t kBlock = 4096;
  const size_t count = indices.size() / 3, blocks = (count + kBlock - 1) / kBlock;
  const auto block_end = [&](size_t block) { return std::min(count, (block + 1) * kBlock); };
  input.corners.resize(count);
  std::vector<uint8_t> usable(count);
  std::vector<size_t> offset(blocks + 1, 0);
  tbb::parallel_for(size_t(0), blocks, [&](size_t block) {
    size_t kept = 0;
    for (size_t t = block * kBlock; t < block_end(block); ++t) {
      const TriangleCorners& c =
          input.corners[t] = {vertices[indices[3 * t]], vertices[indices[3 * t + 1]], vertices[indices[3 * t + 2]]};
      kept += usable[t] = usable_triangle(c);
    }
    offset[block + 1] = kept;
  });
  for (size_t block = 0; block < blocks; ++block) offset[block + 1] += offset[block];
  const size_t kept = offset[blocks];
  input.skipped = uint32_t(count - kept);
  input.usable.resize(kept);
  input.boxes.resize(kept);
  std::vector<Box> bounds(blocks, Box::inverted());
  tbb::parallel_for(size_t(0), blocks, [&](size_t block) {
    size_t at = offset[block];
    for (size_t t = block * kBlock; t < block_end(block); ++t) {
      if (!usable[t]) continue;
      const Box b = triangle_box(input.corners[t]);
      bounds[block].grow(b);
      input.usable[at] = uint32_t(t);
      input.boxes[at++] = b;
    }
  });
  input.bounds = {};
  if (kept == 0) return;
  input.bounds = Box::inverted();  // minima and maxima are exact: the same bounds in any grouping
  for (const Box& b : bounds) input.bounds.grow(b);
}

void add_preorder_stats(TriangleKdTree& tree, float traversal_cost) { count_preorder(tree, traversal_cost, tree.stats); }

void count_preorder(const TriangleKdTree& tree, float traversal_cost, TriangleKdStats& s) {
  if (tree.nodes.empty()) return;
  const Box root{tree.lo, tree.hi};
  const float root_area = root.half_area();
  struct Pending {
    uint32_t node;
    Box box;
    uint32_t depth;
  };
  // Depth first, left child next: the nodes in their preorder, the sum in the order a
  // recursive walk would add it.
  std::vector<Pending> stack{{0, root, 0}};
  while (!stack.empty()) {
    const Pending p = stack.back();
    stack.pop_back();
    const TriangleKdNode& n = tree.nodes[p.node];
    s.max_depth = std::max(s.max_depth, p.depth);
    const double share = root_area > 0.0f ? double(p.box.half_area()) / double(root_area) : 1.0;
    if (n.is_leaf()) {
      ++s.leaves;
      if (n.count() == 0) ++s.empty_leaves;
      s.references += n.count();
      s.sah_cost += share * double(n.count());
      continue;
    }
    s.sah_cost += share * double(traversal_cost);
    Box l = p.box, r = p.box;
    l.hi[n.axis()] = n.split();
    r.lo[n.axis()] = n.split();
    stack.push_back({n.right_or_first(), r, p.depth + 1});
    stack.push_back({p.node + 1, l, p.depth + 1});
  }
}

void write_tree(const std::vector<TriangleBuildNode>& build, const TriangleInput& input, float traversal_cost,
                TriangleKdTree& tree) {
  tree.lo = input.bounds.lo;
  tree.hi = input.bounds.hi;
  size_t entries = 0;
  for (const TriangleBuildNode& b : build) entries += b.triangles.size();
  tree.nodes.reserve(build.size());
  tree.leaf_triangles.reserve(entries);
  PreorderWriter(build, tree).write(0);
  add_preorder_stats(tree, traversal_cost);
  write_leaf_geometry(input, tree);
}

void write_leaf_geometry(const TriangleInput& input, TriangleKdTree& tree) {
  tree.leaf_geometry.resize(tree.leaf_triangles.size());
  tbb::parallel_for(tbb::blocked_range<size_t>(0, tree.leaf_triangles.size(), 4096), [&](const tbb::blocked_range<size_t>& r) {
    for (size_t k = r.begin(); k != r.end(); ++k) {
      const TriangleCorners& c = input.corners[tree.leaf_triangles[k]];
      tree.leaf_geometry[k] = {c.a, c.b - c.a, c.c - c.a};
    }
  });
}

}  // namespace meniscus::sim::kdtree
