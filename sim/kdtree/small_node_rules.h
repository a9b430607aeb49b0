#pragma once
// Small-node stage decisions shared by the CPU and CUDA backends (Zhou et al. 2008, Algorithm 4
// with the VVH of §5.1). A small root holds at most 32 points; every node below it is a 32-bit
// mask over those points. PREPROCESSSMALLNODES gives, for each split candidate (a point's
// coordinate on an axis), the mask of the root's points strictly left of it; a node's split
// then costs one AND and one population count per candidate, and sorting its points into the
// children is one AND each.
#include "sim/kdtree/kdtree_rules.h"

namespace meniscus::sim::kdtree {

struct SmallRoot {
  uint32_t n;
  float c[3][kSmallNodeMax];          // the root's points, per axis
  uint32_t left[3][kSmallNodeMax];    // left[a][j]: points with c[a][i] < c[a][j]
};

// Fills root.left from root.c by sorting each axis (insertion sort: n <= 32) and sweeping.
KD_HD inline void preprocess_small_root(SmallRoot& root) {
  for (int a = 0; a < 3; ++a) {
    uint8_t order[kSmallNodeMax];
    for (uint32_t i = 0; i < root.n; ++i) {
      uint32_t at = i;
      while (at > 0 && root.c[a][order[at - 1]] > root.c[a][i]) {
        order[at] = order[at - 1];
        --at;
      }
      order[at] = uint8_t(i);
    }
    uint32_t below = 0;  // points strictly below the current value
    uint32_t i = 0;
    while (i < root.n) {
      uint32_t run = i, run_mask = 0;
      while (run < root.n && root.c[a][order[run]] == root.c[a][order[i]]) run_mask |= 1u << order[run++];
      for (uint32_t j = i; j < run; ++j) root.left[a][order[j]] = below;
      below |= run_mask;
      i = run;
    }
  }
}

KD_HD inline Aabb mask_box(const SmallRoot& root, uint32_t mask) {
  Aabb box = empty_box();
  for (uint32_t m = mask; m; m &= m - 1) {
    const int i = lowest_bit32(m);
    grow(box, root.c[0][i], root.c[1][i], root.c[2][i]);
  }
  return box;
}

struct SmallSplit {
  uint32_t axis;  // kLeafAxis: keep the node as a leaf
  float position;
  uint32_t left_mask;
};

// Exact VVH over every candidate inside the node (the paper's "j.triangle ∈ s"); the cheapest
// wins, ties to the lower axis and point. A leaf when no split costs less than its points.
KD_HD inline SmallSplit choose_small_split(const SmallRoot& root, uint32_t mask, const Aabb& cell, float radius,
                                           float traversal_cost) {
  SmallSplit best{kLeafAxis, 0.0f, 0};
  const uint32_t count = uint32_t(popcount32(mask));
  const float volume = extended_volume(cell, radius);
  if (count < 2 || !(volume > 0.0f)) return best;
  float best_cost = float(count);
  for (uint32_t a = 0; a < 3; ++a) {
    for (uint32_t m = mask; m; m &= m - 1) {
      const int j = lowest_bit32(m);
      const uint32_t left = mask & root.left[a][j];
      const uint32_t left_count = uint32_t(popcount32(left));
      if (left_count == 0) continue;  // the candidate is the node's lowest point: no split
      const float cost = vvh_cost(cell, a, root.c[a][j], left_count, count - left_count, radius, traversal_cost, volume);
      if (cost < best_cost) {
        best_cost = cost;
        best = SmallSplit{a, root.c[a][j], left};
      }
    }
  }
  return best;
}

// A node of one small root's subtree, numbered locally in BFS order (0 is the root).
struct SmallNode {
  uint32_t mask;
  Aabb cell;
  Aabb box;
  float split;
  uint32_t axis;                 // kLeafAxis for a leaf
  uint32_t left, right;          // local numbers of the children
  uint32_t depth;                // below the small root
};

// A binary tree whose leaves are non-empty subsets of at most 32 points has at most 63 nodes.
inline constexpr uint32_t kSmallSubtreeMax = 2 * kSmallNodeMax - 1;

// Splits a small root (its `cell` and tight `box`) level by level into `out` (kSmallSubtreeMax
// entries) and returns the node count. Every split leaves points on both sides: the left mask
// holds the points strictly below the candidate, which itself goes right.
KD_HD inline uint32_t split_small_subtree(const SmallRoot& root, const Aabb& cell, const Aabb& box, float radius,
                                          float traversal_cost, SmallNode* out) {
  out[0] = SmallNode{root.n == 32 ? ~0u : (1u << root.n) - 1u, cell, box, 0.0f, kLeafAxis, 0, 0, 0};
  uint32_t count = 1;
  for (uint32_t i = 0; i < count; ++i) {  // BFS: children are appended behind the level
    const SmallSplit s = choose_small_split(root, out[i].mask, out[i].cell, radius, traversal_cost);
    if (s.axis == kLeafAxis) continue;
    const uint32_t right_mask = out[i].mask & ~s.left_mask;
    SmallNode left{s.left_mask, out[i].cell, mask_box(root, s.left_mask), 0.0f, kLeafAxis, 0, 0, out[i].depth + 1};
    SmallNode right{right_mask, out[i].cell, mask_box(root, right_mask), 0.0f, kLeafAxis, 0, 0, out[i].depth + 1};
    left.cell.hi[s.axis] = s.position;
    right.cell.lo[s.axis] = s.position;
    out[i].axis = s.axis;
    out[i].split = s.position;
    out[i].left = count;
    out[i].right = count + 1;
    out[count++] = left;
    out[count++] = right;
  }
  return count;
}

}  // namespace meniscus::sim::kdtree
