#pragma once
// The triangle kd-tree's node and leaf records (triangle_kdtree.h), as both backends' traversals
// read them: plain C++17 and host-device, so the CUDA tracer walks the very bytes the CPU build
// wrote.
#include <cstdint>
#include <cstring>
#include <glm/vec3.hpp>

#include "sim/common/host_device.h"

namespace meniscus::sim::kdtree {

constexpr uint32_t kTriangleLeaf = 3;

// A node in preorder, in 8 bytes so that a cache line holds eight of a ray's walk: an interior
// node's left child is the next node, right_or_first() its right child; a leaf's triangles are
// leaf_triangles[right_or_first(), + count()).
class TriangleKdNode {
 public:
  // Indices are 30 bits: the build refuses a tree with more nodes or leaf entries.
  static constexpr uint32_t kMaxIndex = (1u << 30) - 1;

  MENISCUS_HD TriangleKdNode() : TriangleKdNode(kTriangleLeaf, 0) {}  // an empty leaf

  MENISCUS_HD static TriangleKdNode interior(uint32_t axis, float split, uint32_t right) {
    uint32_t bits;
    std::memcpy(&bits, &split, sizeof bits);
    return {axis | right << 2, bits};
  }
  MENISCUS_HD static TriangleKdNode leaf(uint32_t first, uint32_t count) { return {kTriangleLeaf | first << 2, count}; }

  MENISCUS_HD uint32_t axis() const { return bits_ & 3u; }  // 0, 1, 2; kTriangleLeaf for a leaf
  MENISCUS_HD bool is_leaf() const { return axis() == kTriangleLeaf; }
  MENISCUS_HD uint32_t right_or_first() const { return bits_ >> 2; }
  MENISCUS_HD float split() const {  // an interior node's
    float split;
    std::memcpy(&split, &payload_, sizeof split);
    return split;
  }
  MENISCUS_HD uint32_t count() const { return payload_; }  // a leaf's
  bool operator==(const TriangleKdNode& other) const { return bits_ == other.bits_ && payload_ == other.payload_; }

 private:
  MENISCUS_HD TriangleKdNode(uint32_t bits, uint32_t payload) : bits_(bits), payload_(payload) {}
  uint32_t bits_;     // axis | index << 2
  uint32_t payload_;  // the split's bits, or the leaf's count
};
static_assert(sizeof(TriangleKdNode) == 8);

// A leaf entry's triangle as the traversal tests it: its first corner and the two edges from
// it (all the Möller–Trumbore test reads), stored in leaf order beside leaf_triangles, so a
// leaf's tests read one contiguous run instead of three scattered vertices each.
struct LeafTriangle {
  glm::vec3 a, e1, e2;
};

}  // namespace meniscus::sim::kdtree
