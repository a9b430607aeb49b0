#pragma once
// The small-node stage of the triangle kd-tree (Zhou et al. 2008, Algorithm 4 with the SAH) for
// one small root of at most 64 triangles, as plain host-device C++17: the CPU build runs it per
// small root on TBB, the CUDA build a thread per small root, so both split alike.
//
// Triangle sets are 64-bit masks of the root's triangles. Split candidates are the faces of
// their boxes at the root (no clipping below the root, as the paper argues); each candidate's
// left and right sets are precomputed once, so a node's SAH is two popcounts per candidate. A
// node becomes a leaf when no split is cheaper than testing its triangles. The subtree comes
// out in preorder (a node, its left subtree, its right subtree) through a sink:
//   uint32_t interior(uint32_t axis, float split)  -> the node's number (its left child follows)
//   uint32_t leaf(uint64_t set)                    -> the node's number
//   void right_child(uint32_t parent, uint32_t child)
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "sim/common/host_device.h"
#include "sim/kdtree/triangle_build_rules.h"

namespace meniscus::sim::kdtree {

inline constexpr uint32_t kSmallTrianglesMax = 64;

MENISCUS_HD inline int popcount64(uint64_t v) {
#if defined(__CUDA_ARCH__)
  return __popcll(v);
#else
  return __builtin_popcountll(v);
#endif
}

MENISCUS_HD inline int lowest_bit64(uint64_t v) {
#if defined(__CUDA_ARCH__)
  return __ffsll(static_cast<long long>(v)) - 1;
#else
  return __builtin_ctzll(v);
#endif
}

// A node's chosen split: its plane and its children's triangle sets.
struct SmallSplit {
  bool found = false;
  uint32_t axis = 0;
  float position = 0.0f;
  uint64_t left = 0, right = 0;
};

class SmallTriangleRoot {
 public:
  // The root's n <= 64 triangles' boxes clipped to the root (`lo[axis][i]`, `hi[axis][i]`).
  uint32_t n = 0;
  float lo[3][kSmallTrianglesMax], hi[3][kSmallTrianglesMax];

  // Candidate (axis, triangle i, face k) sits at [axis][2 i + k] of the candidate arrays. Its
  // left set is the triangles starting below it (plus those lying flat in its plane), its right
  // set those ending above it: prefix masks over the triangles sorted by their box's low and
  // high ends, taken where a sweep of the candidates in ascending order stands in each sorted
  // list. The masks do not depend on how the sorts order equal ends.
  MENISCUS_HD void prepare() {
    uint8_t by_lo[kSmallTrianglesMax], by_hi[kSmallTrianglesMax];
    uint64_t below[kSmallTrianglesMax + 1], above[kSmallTrianglesMax + 1];
    // flat[k]: the triangles lying flat in the plane of by_lo[k]'s low end, from k to the end
    // of its run of equal lows. A run's first entry holds all of the run's.
    uint64_t flat[kSmallTrianglesMax];
    below[0] = above[0] = 0;
    for (uint32_t axis = 0; axis < 3; ++axis) {
      const float* l = lo[axis];
      const float* h = hi[axis];
      sort_indices(by_lo, l, true);
      sort_indices(by_hi, h, false);
      for (uint32_t k = 0; k < n; ++k) {
        below[k + 1] = below[k] | uint64_t(1) << by_lo[k];  // the k + 1 lowest starts
        above[k + 1] = above[k] | uint64_t(1) << by_hi[k];  // the k + 1 highest ends
      }
      for (uint32_t k = n; k-- > 0;) {
        const uint32_t i = by_lo[k];
        flat[k] = (k + 1 < n && l[by_lo[k + 1]] == l[i] ? flat[k + 1] : 0) | (h[i] == l[i] ? uint64_t(1) << i : 0);
      }
      // The triangles lying flat in the plane at `position`, the run of lows from `first_start`
      // being the one at `position` if any triangle starts there.
      const auto flat_at = [&](uint32_t first_start, float position) {
        return first_start < n && l[by_lo[first_start]] == position ? flat[first_start] : uint64_t(0);
      };
      // The low faces in ascending order: `run` (lo < p) is where p's run of equal lows begins;
      // `ends` (hi > p) shrinks from the back of by_hi, which descends.
      uint32_t run = 0, ends = n;
      for (uint32_t k = 0; k < n; ++k) {
        const float position = l[by_lo[k]];
        if (k > 0 && position != l[by_lo[k - 1]]) run = k;
        while (ends > 0 && h[by_hi[ends - 1]] <= position) --ends;
        add(axis, by_lo[k], 0, position, below[run], flat_at(run, position), above[ends]);
      }
      // The high faces in ascending order (by_hi backwards): `first` is where p's run of equal
      // highs begins in by_hi; `starts` grows along by_lo.
      uint32_t starts = 0;
      for (uint32_t k = n; k-- > 0;) {
        const float position = h[by_hi[k]];
        uint32_t first = k;
        while (first > 0 && h[by_hi[first - 1]] == position) --first;
        while (starts < n && l[by_lo[starts]] < position) ++starts;
        add(axis, by_hi[k], 1, position, below[starts], flat_at(starts, position), above[first]);
      }
    }
  }

  // The subtree of the root (its box `box`, `depth` deep in the whole tree) into `sink`.
  template <class Sink>
  MENISCUS_HD void split(const Box& box, uint32_t depth, const TriangleKdParams& params, Sink& sink) const {
    split(box, depth, params, sink,
          [this](const Box& b, uint64_t set, const TriangleKdParams& p) { return best_split(b, set, p); });
  }
  // The same with another choice of each node's split: `choose(box, set, params)`, which must
  // choose as best_split() does (small_triangle_root_avx512.h).
  template <class Sink, class Choose>
  MENISCUS_HD void split(const Box& box, uint32_t depth, const TriangleKdParams& params, Sink& sink,
                         const Choose& choose) const {
    struct Pending {
      Box box;
      uint64_t set;
      uint32_t depth;
      uint32_t parent;  // the node whose right child this is, or kNoParent
    };
    constexpr uint32_t kNoParent = UINT32_MAX;
    // Depth-first, left child next: at most one pending right child per level below the root.
    Pending stack[kMaxPending];
    int top = 0;
    stack[top++] = {box, n == 64 ? ~uint64_t(0) : (uint64_t(1) << n) - 1, depth, kNoParent};
    while (top > 0) {
      const Pending p = stack[--top];
      const SmallSplit best = p.depth < params.max_depth ? choose(p.box, p.set, params) : SmallSplit{};
      const uint32_t id = best.found ? sink.interior(best.axis, best.position) : sink.leaf(p.set);
      if (p.parent != kNoParent) sink.right_child(p.parent, id);
      if (!best.found) continue;
      Box l = p.box, r = p.box;
      l.hi[best.axis] = best.position;
      r.lo[best.axis] = best.position;
      stack[top++] = {r, best.right, p.depth + 1, id};
      stack[top++] = {l, best.left, p.depth + 1, kNoParent};
    }
  }

 private:
  friend void prepare_avx512(SmallTriangleRoot& root);
  friend SmallSplit best_split_avx512(const SmallTriangleRoot& root, const Box& box, uint64_t set,
                                      const TriangleKdParams& params);

  // A node at depth max_depth (64) is a leaf, and the small root lies at depth >= 0.
  static constexpr int kMaxPending = 66;

  // The triangles' order by `key`, ascending or descending. On the host std::sort over packed
  // (key, index) words, several times faster than the insertion sort a GPU thread runs; the
  // masks built from either order are the same.
  MENISCUS_HD void sort_indices(uint8_t* order, const float* key, bool ascending) const {
#if defined(__CUDA_ARCH__)
    for (uint32_t i = 0; i < n; ++i) {
      uint32_t j = i;
      for (; j > 0 && (ascending ? key[order[j - 1]] > key[i] : key[order[j - 1]] < key[i]); --j) order[j] = order[j - 1];
      order[j] = uint8_t(i);
    }
#else
    uint64_t packed[kSmallTrianglesMax];
    for (uint32_t i = 0; i < n; ++i) {
      uint32_t bits;
      std::memcpy(&bits, &key[i], sizeof bits);
      bits = bits & 0x80000000u ? ~bits : bits | 0x80000000u;  // ascending floats as ascending words
      if (!ascending) bits = ~bits;
      packed[i] = uint64_t(bits) << 8 | i;
    }
    std::sort(packed, packed + n);
    for (uint32_t i = 0; i < n; ++i) order[i] = uint8_t(packed[i]);
#endif
  }

  MENISCUS_HD void add(uint32_t axis, uint32_t i, uint32_t face, float position, uint64_t below, uint64_t flat,
                       uint64_t right) {
    const uint32_t c = 2 * i + face;
    position_[axis][c] = position;
    left_[axis][c] = below | flat;
    right_[axis][c] = right;
    flat_[axis][c] = flat;
  }

  // The cheapest split of the node (`box`, `set`) by the SAH, in the order axis, triangle,
  // face, the first of equal costs; none when no split beats testing the node's triangles.
  // Inside the node a plane's flat triangles go left. On one of the node's own faces a plane
  // is a candidate only to set its flat triangles apart in a flat child (a wall on the node's
  // side, the empty space in front of it then free of it): as the large stage's empty-space
  // cuts do, for nodes too small for that stage.
  MENISCUS_HD SmallSplit best_split(const Box& box, uint64_t set, const TriangleKdParams& params) const {
    SmallSplit best;
    const float area = box.half_area();
    if (set == 0 || !(area > 0.0f)) return best;
    float best_cost = float(popcount64(set));  // SAH_0: the node as a leaf
    const glm::vec3 d = glm::max(box.hi - box.lo, glm::vec3(0.0f));
    for (uint32_t axis = 0; axis < 3; ++axis) {
      const float lo = box.lo[axis], hi = box.hi[axis];
      // A child's half_area() with its extent `a` along the axis, term for term as half_area
      // adds them (the same float), with the product of the other two extents computed once.
      const float u = d[(axis + 1) % 3], w = d[(axis + 2) % 3], across = u * w;
      auto child_area = [&](float a) {
        return axis == 0 ? a * u + across + w * a : (axis == 1 ? w * a + a * u + across : across + w * a + a * u);
      };
      for (uint64_t bits = set; bits; bits &= bits - 1) {
        const uint32_t first = 2 * uint32_t(lowest_bit64(bits));
        for (uint32_t c = first; c < first + 2; ++c) {
          const float p = position_[axis][c];
          uint64_t left = set & left_[axis][c], right = set & right_[axis][c];
          const uint64_t flat = set & flat_[axis][c];
          if (p == hi && p > lo) {
            if (!flat) continue;
            left &= ~flat;  // the flat ones go up, into the flat child
            right |= flat;
          } else if (p == lo && p < hi) {
            if (!flat) continue;
          } else if (!(p > lo && p < hi)) {
            continue;
          }
          const float cost = (float(popcount64(left)) * child_area(glm::max(p - lo, 0.0f)) +
                              float(popcount64(right)) * child_area(glm::max(hi - p, 0.0f))) /
                                 area +
                             params.traversal_cost;
          if (cost < best_cost) best_cost = cost, best = {true, axis, p, left, right};
        }
      }
    }
    return best;
  }

  // The split candidates (prepare()), by axis and 2 i + face.
  float position_[3][2 * kSmallTrianglesMax];
  uint64_t left_[3][2 * kSmallTrianglesMax];  // the triangles on either side, as masks of the root's
  uint64_t right_[3][2 * kSmallTrianglesMax];
  uint64_t flat_[3][2 * kSmallTrianglesMax];  // those lying flat in its plane (in left_)
};

}  // namespace meniscus::sim::kdtree
