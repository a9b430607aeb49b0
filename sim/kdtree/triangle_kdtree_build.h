#pragma once
// What the triangle kd-tree builders share (internal to sim/kdtree): the usable triangles with
// their boxes, the tree while it is built, and its preorder output with the statistics, so the
// Zhou et al. build (triangle_kdtree.cpp) and the full-SAH reference (full_sah_kdtree.cpp) give
// trees the traversal and the SAH cost read alike.
#include <cstdint>
#include <span>
#include <vector>

#include "sim/kdtree/triangle_build_errors.h"
#include "sim/kdtree/triangle_clip.h"
#include "sim/kdtree/triangle_kdtree.h"

namespace meniscus::sim::kdtree {

// A tree while it is built (the full-SAH build's): children by index into its node vector.
struct TriangleBuildNode {
  uint32_t axis = kTriangleLeaf;
  float split = 0.0f;
  uint32_t left = 0, right = 0;
  std::vector<uint32_t> triangles;  // a leaf's, in id order
};

// The input's triangles: every triangle's corners, and the usable ones (finite, non-zero area)
// in id order with their boxes.
struct TriangleInput {
  std::vector<TriangleCorners> corners;  // every triangle, usable or not
  std::vector<uint32_t> usable;
  std::vector<Box> boxes;        // of the usable ones
  Box bounds;                    // of all usable ones (meaningless when there are none)
  uint32_t skipped = 0;
};

// `input` refilled from the mesh, its arrays' memory reused. InputError for an index out of
// range or a count not divisible by three.
void gather_triangles(std::span<const glm::vec3> vertices, std::span<const uint32_t> indices, TriangleInput& input);

// The statistics a preorder tree (its nodes, lo and hi) shows, added to `stats` (zero): leaves,
// empty leaves, depth, references and the SAH cost. The CPU and the CUDA builds' trees are
// counted alike.
void count_preorder(const TriangleKdTree& tree, float traversal_cost, TriangleKdStats& stats);
// count_preorder into the tree's own stats.
void add_preorder_stats(TriangleKdTree& tree, float traversal_cost);

// `build[0]` is the root, whose box is the input's bounds. Fills the tree's preorder nodes,
// leaves, leaf geometry, box and statistics (but not build_ms or the counts the builder knows).
void write_tree(const std::vector<TriangleBuildNode>& build, const TriangleInput& input, float traversal_cost,
                TriangleKdTree& tree);

// The tree's leaf_geometry from its leaf_triangles: each entry's corner and edges.
void write_leaf_geometry(const TriangleInput& input, TriangleKdTree& tree);

}  // namespace meniscus::sim::kdtree
