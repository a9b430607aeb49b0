#pragma once
// The large-node stage of the CPU triangle kd-tree build (Zhou et al. 2008 §3.1, Algorithm 2
// for triangles: triangle_build_rules.h), internal to sim/kdtree. As in the paper, a level's
// nodes hold their triangles in shared arrays, a node being a range of them: a level is
// classified in chunks, the chunks in parallel whatever the nodes' sizes (the root is one node
// of every triangle), and each triangle is written once per side it goes to, into the next
// level or into the small roots' arrays. Nodes of at most large_node_triangles triangles leave the stage as
// small roots.
#include <cstdint>
#include <vector>

#include "sim/kdtree/triangle_build_rules.h"
#include "sim/kdtree/triangle_kdtree_build.h"

namespace meniscus::sim::kdtree {

// A node the large stage decided: an interior node, a leaf, or a small root whose subtree the
// small stage builds. Children are indices into LargeStage::nodes.
struct LargeStageNode {
  enum class Kind : uint8_t { kInterior, kLeaf, kSmallRoot };
  Kind kind = Kind::kLeaf;
  uint32_t axis = 0;
  float split = 0.0f;
  uint32_t left = 0, right = 0;   // an interior node's children
  uint32_t first = 0, count = 0;  // a leaf's triangles in leaf_triangles; a small root's in the small arrays
  uint32_t small_root = 0;        // a small root's place in LargeStage::small_roots
  uint32_t depth = 0;
  Box box;
};

// A level's triangles, node after node.
struct LevelEntries {
  std::vector<uint32_t> triangles;
  std::vector<Box> clipped;
};

struct LargeStage {
  std::vector<LargeStageNode> nodes;     // nodes[0] is the root
  std::vector<uint32_t> leaf_triangles;  // the large stage's leaves', each ascending by id
  // The small roots' triangles, each root's a range ascending by id, with their boxes clipped
  // to the root.
  std::vector<uint32_t> small_triangles;
  std::vector<Box> small_clipped;
  std::vector<uint32_t> small_roots;  // indices into nodes, in the order they were made
  uint32_t levels = 0;
  // The levels' working arrays, one level read while the next is written. Kept with the rest,
  // so that a stage run again on a mesh of about the same size reuses its large arrays.
  LevelEntries working[2];
};

// `stage` refilled, its memory reused. The input must hold a usable triangle.
void run_large_stage(const TriangleInput& input, const TriangleKdParams& params, LargeStage& stage);

}  // namespace meniscus::sim::kdtree
