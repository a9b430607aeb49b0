// The triangle kd-tree builders' shared input and output (triangle_kdtree_build.h).
#include "sim/kdtree/triangle_kdtree_build.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "engine/core/error.h"

namespace meniscus::sim::kdtree {
namespace {

// Preorder output (§3.3) with the tree's statistics and SAH cost.
class PreorderWriter {
 public:
  PreorderWriter(const std::vector<TriangleBuildNode>& build, TriangleKdTree& tree, float root_area, float traversal_cost)
      : build_(build), tree_(tree), root_area_(root_area), traversal_cost_(traversal_cost) {}

  void write(uint32_t id, uint32_t depth) {
    const TriangleBuildNode& b = build_[id];
    const uint32_t at = uint32_t(tree_.nodes.size());
    tree_.nodes.push_back(TriangleKdNode::leaf(0, 0));  // filled below, once its index is known
    TriangleKdStats& s = tree_.stats;
    s.max_depth = std::max(s.max_depth, depth);
    const double share = root_area_ > 0.0f ? double(b.box.half_area()) / double(root_area_) : 1.0;
    if (b.axis == kTriangleLeaf) {
      tree_.nodes[at] = TriangleKdNode::leaf(index(tree_.leaf_triangles.size()), uint32_t(b.triangles.size()));
      tree_.leaf_triangles.insert(tree_.leaf_triangles.end(), b.triangles.begin(), b.triangles.end());
      ++s.leaves;
      if (b.triangles.empty()) ++s.empty_leaves;
      s.references += b.triangles.size();
      s.sah_cost += share * double(b.triangles.size());
      return;
    }
    s.sah_cost += share * double(traversal_cost_);
    write(b.left, depth + 1);
    tree_.nodes[at] = TriangleKdNode::interior(b.axis, b.split, index(tree_.nodes.size()));
    write(b.right, depth + 1);
  }

 private:
  static uint32_t index(size_t i) {
    if (i > TriangleKdNode::kMaxIndex)
      throw InputError("triangle kd-tree: more than 2^30 nodes or leaf entries (split the mesh)");
    return uint32_t(i);
  }

  const std::vector<TriangleBuildNode>& build_;
  TriangleKdTree& tree_;
  float root_area_;
  float traversal_cost_;
};

}  // namespace

TriangleInput gather_triangles(std::span<const glm::vec3> vertices, std::span<const uint32_t> indices) {
  if (indices.size() % 3 != 0)
    throw InputError("triangle kd-tree: " + std::to_string(indices.size()) + " indices is not three per triangle");
  if (indices.size() / 3 >= UINT32_MAX) throw InputError("triangle kd-tree: 2^32 triangles or more");
  for (size_t i = 0; i < indices.size(); ++i)
    if (indices[i] >= vertices.size())
      throw InputError("triangle kd-tree: triangle " + std::to_string(i / 3) + " names vertex " +
                       std::to_string(indices[i]) + " of " + std::to_string(vertices.size()));
  TriangleInput input;
  const size_t count = indices.size() / 3;
  input.corners.resize(count);
  for (size_t t = 0; t < count; ++t) {
    const TriangleCorners& c = input.corners[t] = {vertices[indices[3 * t]], vertices[indices[3 * t + 1]], vertices[indices[3 * t + 2]]};
    if (!usable_triangle(c)) {
      ++input.skipped;
      continue;
    }
    const Box b = triangle_box(c);
    if (input.usable.empty()) input.bounds = b;
    input.bounds.grow(b);
    input.usable.push_back(uint32_t(t));
    input.boxes.push_back(b);
  }
  return input;
}

void write_tree(const std::vector<TriangleBuildNode>& build, const TriangleInput& input, float traversal_cost,
                TriangleKdTree& tree) {
  tree.lo = input.bounds.lo;
  tree.hi = input.bounds.hi;
  PreorderWriter(build, tree, input.bounds.half_area(), traversal_cost).write(0, 0);
  tree.leaf_geometry.resize(tree.leaf_triangles.size());
  tbb::parallel_for(tbb::blocked_range<size_t>(0, tree.leaf_triangles.size(), 4096), [&](const tbb::blocked_range<size_t>& r) {
    for (size_t k = r.begin(); k != r.end(); ++k) {
      const TriangleCorners& c = input.corners[tree.leaf_triangles[k]];
      tree.leaf_geometry[k] = {c.a, c.b - c.a, c.c - c.a};
    }
  });
}

}  // namespace meniscus::sim::kdtree
