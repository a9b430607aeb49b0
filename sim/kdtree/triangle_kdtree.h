#pragma once
// An SAH kd-tree over triangles after Zhou, Hou, Wang, Guo, "Real-Time KD-Tree Construction on
// Graphics Hardware" (2008) §3, the CPU reference (multi-threaded over the nodes of a level):
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
#include <bit>
#include <cstdint>
#include <glm/vec3.hpp>
#include <span>
#include <vector>

namespace meniscus::sim::kdtree {

struct TriangleKdParams {
  uint32_t large_node_triangles = 64;  // T: larger nodes split by median / empty space
  float empty_space_ratio = 0.25f;     // C_e: empty space cut off beyond this share of an axis
  float traversal_cost = 1.0f;         // C_ts, in units of one ray-triangle test
  uint32_t max_depth = 64;             // a node this deep is a leaf whatever it holds
};

constexpr uint32_t kTriangleLeaf = 3;

// A node in preorder, in 8 bytes so that a cache line holds eight of a ray's walk: an interior
// node's left child is the next node, right_or_first() its right child; a leaf's triangles are
// leaf_triangles[right_or_first(), + count()).
class TriangleKdNode {
 public:
  // Indices are 30 bits: the build refuses a tree with more nodes or leaf entries.
  static constexpr uint32_t kMaxIndex = (1u << 30) - 1;

  static TriangleKdNode interior(uint32_t axis, float split, uint32_t right) {
    return {axis | right << 2, std::bit_cast<uint32_t>(split)};
  }
  static TriangleKdNode leaf(uint32_t first, uint32_t count) { return {kTriangleLeaf | first << 2, count}; }

  uint32_t axis() const { return bits_ & 3u; }  // 0, 1, 2; kTriangleLeaf for a leaf
  bool is_leaf() const { return axis() == kTriangleLeaf; }
  uint32_t right_or_first() const { return bits_ >> 2; }
  float split() const { return std::bit_cast<float>(payload_); }  // an interior node's
  uint32_t count() const { return payload_; }                     // a leaf's
  bool operator==(const TriangleKdNode&) const = default;

 private:
  TriangleKdNode(uint32_t bits, uint32_t payload) : bits_(bits), payload_(payload) {}
  uint32_t bits_;     // axis | index << 2
  uint32_t payload_;  // the split's bits, or the leaf's count
};
static_assert(sizeof(TriangleKdNode) == 8);

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

// A leaf entry's triangle as the traversal tests it: its first corner and the two edges from
// it (all the Möller–Trumbore test reads), stored in leaf order beside leaf_triangles, so a
// leaf's tests read one contiguous run instead of three scattered vertices each.
struct LeafTriangle {
  glm::vec3 a, e1, e2;
};

struct TriangleKdTree {
  std::vector<TriangleKdNode> nodes;  // preorder; empty when no triangle is usable
  std::vector<uint32_t> leaf_triangles;
  std::vector<LeafTriangle> leaf_geometry;  // leaf_geometry[k] is triangle leaf_triangles[k]'s
  glm::vec3 lo{0.0f}, hi{0.0f};  // the root's box
  TriangleKdStats stats;
  bool is_leaf(uint32_t node) const { return nodes[node].is_leaf(); }
};

// `indices` holds three vertex indices per triangle. Throws InputError for an index out of
// range or a count not divisible by three, and for parameters out of range.
TriangleKdTree build_triangle_kdtree(std::span<const glm::vec3> vertices, std::span<const uint32_t> indices,
                                     const TriangleKdParams& params = {});

}  // namespace meniscus::sim::kdtree
