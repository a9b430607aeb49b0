#pragma once
// The triangle kd-tree's construction rules (Zhou et al. 2008 §3) as plain host-device C++17:
// which triangles are usable, how a large node splits (Algorithm 2: empty space cut off, else
// the spatial median) and which child a triangle goes to with what clipped box. The CPU build
// (triangle_kdtree.cpp) and the CUDA build (triangle_build_cuda*.cu) decide with these very
// lines, so they build the same tree.
#include <cmath>
#include <cstdint>
#include <glm/common.hpp>
#include <glm/vec3.hpp>

#include "sim/common/host_device.h"
#include "sim/kdtree/triangle_clip.h"

namespace meniscus::sim::kdtree {

struct TriangleKdParams {
  uint32_t large_node_triangles = 64;  // T: larger nodes split by median / empty space
  float empty_space_ratio = 0.25f;     // C_e: empty space cut off beyond this share of an axis
  // C_ts, in units of one ray-triangle test. Of 1, 1.5, 2 and 3, 2 gave the fastest build plus
  // trace in meniscus-bench raytrace (the water and Lucy, 2 threads): half the nodes of 1, the
  // build 18-32% faster, the trace 3-4% faster. Both backends build with it (the same tree); it
  // has not been measured on a GPU.
  float traversal_cost = 2.0f;
  uint32_t max_depth = 64;             // a node this deep is a leaf whatever it holds
  // The CPU build's small stage with AVX-512 where the CPU has it (small_triangle_root_avx512.h):
  // the same tree, faster. False: the portable code, as the CUDA build runs it.
  bool cpu_simd = true;
  // The CPU build walks the finished tree for its stats' leaves, depth, references and SAH cost:
  // a serial pass, 4 ms of a 50 ms build of 264K triangles on 2 cores, that the tree does not
  // need. False: they stay 0, and measure_triangle_kdtree counts them when asked.
  bool stats = true;
};

struct TriangleCorners {
  glm::vec3 a, b, c;
};

// Finite corners and a non-zero cross product: a triangle a ray can hit and a box can bound.
MENISCUS_HD inline bool usable_triangle(const TriangleCorners& t) {
  const glm::vec3 corners[3] = {t.a, t.b, t.c};
  for (const glm::vec3& p : corners)
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) return false;
  const glm::vec3 e1 = t.b - t.a, e2 = t.c - t.a;
  const glm::vec3 n{e1.y * e2.z - e1.z * e2.y, e1.z * e2.x - e1.x * e2.z, e1.x * e2.y - e1.y * e2.x};
  return n.x != 0.0f || n.y != 0.0f || n.z != 0.0f;
}

MENISCUS_HD inline Box triangle_box(const TriangleCorners& t) {
  return {glm::min(glm::min(t.a, t.b), t.c), glm::max(glm::max(t.a, t.b), t.c)};
}

// A large node's split. `leaf`: it is not split (too deep, or no room for a median).
struct LargeTriangleSplit {
  bool leaf = true;
  bool empty_cut = false;    // an empty-space cut (else the median)
  bool planar_left = true;   // where triangles lying flat in the split plane go
  uint32_t axis = 0;
  float split = 0.0f;
  Box left_box, right_box;
};

// Algorithm 2 for triangles: empty space beyond C_e on a side of `box` is cut off at `tight`
// (the node's triangles clipped to it), the largest such share first; else the spatial median
// of the box's longest axis.
MENISCUS_HD inline LargeTriangleSplit choose_large_triangle_split(const Box& tight, const Box& box, uint32_t depth,
                                                                  const TriangleKdParams& params) {
  LargeTriangleSplit out;
  if (depth >= params.max_depth) return out;
  float best_empty = params.empty_space_ratio;
  int empty_axis = -1;
  bool empty_upper = false;
  for (int axis = 0; axis < 3; ++axis) {
    const float extent = box.extent(axis);
    if (extent <= 0.0f) continue;
    const float below = (tight.lo[axis] - box.lo[axis]) / extent, above = (box.hi[axis] - tight.hi[axis]) / extent;
    if (below > best_empty) best_empty = below, empty_axis = axis, empty_upper = false;
    if (above > best_empty) best_empty = above, empty_axis = axis, empty_upper = true;
  }
  out.left_box = out.right_box = box;
  if (empty_axis >= 0) {
    out.axis = uint32_t(empty_axis);
    out.split = empty_upper ? tight.hi[empty_axis] : tight.lo[empty_axis];
    out.empty_cut = true;
    // Triangles lying flat in the plane of a cut below them belong to the non-empty side:
    // sending them into the empty child would hand it the whole node again, level after level.
    out.planar_left = empty_upper;
  } else {
    int longest = 0;
    for (int axis = 1; axis < 3; ++axis)
      if (box.extent(axis) > box.extent(longest)) longest = axis;
    out.axis = uint32_t(longest);
    out.split = 0.5f * (box.lo[longest] + box.hi[longest]);
    if (!(out.split > box.lo[longest] && out.split < box.hi[longest])) return out;  // no room left
  }
  out.left_box.hi[out.axis] = out.split;
  out.right_box.lo[out.axis] = out.split;
  out.leaf = false;
  return out;
}

// Where one of a node's triangles goes at `s`, with its box in each child (clipped where it
// crosses the split; a triangle that only touches a child's box there stays out of it).
struct TriangleSides {
  bool left = false, right = false;
  Box left_box, right_box;
};

MENISCUS_HD inline TriangleSides classify_triangle(const TriangleCorners& t, const Box& clipped,
                                                   const LargeTriangleSplit& s) {
  TriangleSides out;
  const int a = int(s.axis);
  const bool planar_on_split = clipped.lo[a] == s.split && clipped.hi[a] == s.split;
  const bool to_left = clipped.lo[a] < s.split || (planar_on_split && s.planar_left);
  const bool to_right = clipped.hi[a] > s.split || (planar_on_split && !s.planar_left);
  out.left_box = out.right_box = clipped;
  if (to_left && to_right) {
    out.left = clipped_bounds(t.a, t.b, t.c, s.left_box, out.left_box);
    out.right = clipped_bounds(t.a, t.b, t.c, s.right_box, out.right_box);
  } else {
    out.left = to_left;
    out.right = to_right;
  }
  return out;
}

// A median split that leaves every triangle on both sides gains nothing (coincident
// triangles): the node becomes a leaf instead.
MENISCUS_HD inline bool split_gains_nothing(const LargeTriangleSplit& s, uint32_t count, uint32_t left, uint32_t right) {
  return !s.empty_cut && left == count && right == count;
}

}  // namespace meniscus::sim::kdtree
