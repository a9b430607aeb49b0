#pragma once
// An SAH kd-tree over triangles after Zhou, Hou, Wang, Guo, "Real-Time KD-Tree Construction on
// Graphics Hardware" (2008) §3, the CPU reference (multi-threaded: a level's triangles in chunks,
// the small roots side by side; the small stage with AVX-512 where the CPU has it):
//  - large-node stage (more than `large_node_triangles` triangles): the node's tight box from
//    its triangles clipped to it; empty space cut off where it exceeds `empty_space_ratio` of
//    an axis, else a split at the spatial median of the longest axis; triangles are clipped to
//    the children, so a child's box never grows from a triangle's part outside it;
//  - small-node stage: exact SAH over the split candidates of each small root (the faces of its
//    triangles' boxes), triangle sets as 64-bit masks of the small root; no clipping, as the
//    paper argues; a node becomes a leaf when no split is cheaper than testing its triangles;
//  - output in preorder (the left child follows its parent), as the stack-based traversal wants.
// The same tree for any thread count. Degenerate triangles (zero area, NaN or infinite
// corners) are skipped and counted: they can neither be hit nor bound a node.
#include <cstdint>
#include <glm/vec3.hpp>
#include <memory>
#include <span>
#include <vector>

#include "sim/kdtree/triangle_build_rules.h"
#include "sim/kdtree/triangle_kd_node.h"

namespace meniscus::sim::kdtree {

struct TriangleKdStats {
  uint32_t triangles = 0;  // the usable ones
  uint32_t skipped = 0;    // degenerate, NaN or infinite
  uint32_t large_levels = 0;
  uint32_t small_roots = 0;
  uint32_t leaves = 0;
  uint32_t empty_leaves = 0;
  uint32_t max_depth = 0;
  uint64_t references = 0;  // leaf entries (a triangle in several leaves counts in each)
  // The tree's SAH cost: C_ts times the area share of every interior node plus the triangle
  // count times the area share of every leaf (relative to the root's box).
  double sah_cost = 0.0;
  double build_ms = 0.0;
};

struct TriangleKdTree {
  std::vector<TriangleKdNode> nodes;  // preorder; empty when no triangle is usable
  std::vector<uint32_t> leaf_triangles;
  std::vector<LeafTriangle> leaf_geometry;  // leaf_geometry[k] is triangle leaf_triangles[k]'s
  glm::vec3 lo{0.0f}, hi{0.0f};  // the root's box
  TriangleKdStats stats;
  bool is_leaf(uint32_t node) const { return nodes[node].is_leaf(); }
};

// Builds a tree frame after frame, keeping its working memory and its tree's between builds:
// a build of about the last one's size writes into pages already mapped. (A fresh 264k-triangle
// build touched some 50 MB of new pages, and each new page faults: a fifth of the build.)
class TriangleKdBuilder {
 public:
  TriangleKdBuilder();
  ~TriangleKdBuilder();
  TriangleKdBuilder(TriangleKdBuilder&&) noexcept;
  TriangleKdBuilder& operator=(TriangleKdBuilder&&) noexcept;

  // The tree over the mesh, valid until the next build. `indices` holds three vertex indices
  // per triangle. Throws InputError for an index out of range or a count not divisible by
  // three, and for parameters out of range; the tree is then empty.
  const TriangleKdTree& build(std::span<const glm::vec3> vertices, std::span<const uint32_t> indices,
                              const TriangleKdParams& params = {});
  const TriangleKdTree& tree() const { return tree_; }
  // The tree, moved out (the builder's is then empty).
  TriangleKdTree take() { return std::move(tree_); }

 private:
  void build_tree(std::span<const glm::vec3> vertices, std::span<const uint32_t> indices,
                  const TriangleKdParams& params);

  struct Working;  // the build's arrays (triangle_kdtree.cpp)
  std::unique_ptr<Working> working_;
  TriangleKdTree tree_;
};

// The small stage's code a CPU build with `params` runs on this CPU: "avx512" or "portable".
const char* triangle_build_kernels(const TriangleKdParams& params);

// The tree's stats with the leaves, empty leaves, depth, references and SAH cost counted, as a
// build with params.stats counts them (for a tree built without).
TriangleKdStats measure_triangle_kdtree(const TriangleKdTree& tree, float traversal_cost);

// A tree built once, by a builder of its own.
TriangleKdTree build_triangle_kdtree(std::span<const glm::vec3> vertices, std::span<const uint32_t> indices,
                                     const TriangleKdParams& params = {});

}  // namespace meniscus::sim::kdtree
