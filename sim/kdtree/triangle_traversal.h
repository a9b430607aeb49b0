#pragma once
// The stack-based kd-tree traversal of Zhou et al. 2008 §4 (near child first, the far child
// pushed with its parametric interval, a leaf's hit accepted once it lies inside the leaf's
// interval) and the Möller–Trumbore ray-triangle test (1997), host-device: the CPU tracer
// (triangle_ray.h) and the CUDA tracer (sim/raytrace) run this same code over the same tree.
#include <cmath>
#include <cstdint>
#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <glm/vec3.hpp>
#include <limits>

#include "sim/common/host_device.h"
#include "sim/kdtree/triangle_kd_node.h"

namespace meniscus::sim::kdtree {

struct Ray {
  glm::vec3 origin{0.0f};
  glm::vec3 direction{0.0f, 0.0f, 1.0f};  // need not be unit length; t is in its units
  float t_min = 0.0f;
  float t_max = std::numeric_limits<float>::infinity();
};

struct RayHit {
  float t = std::numeric_limits<float>::infinity();
  uint32_t triangle = UINT32_MAX;  // UINT32_MAX: no hit
  float u = 0.0f, v = 0.0f;        // barycentric weights of corners 1 and 2
  // The hit triangle's cross(b - a, c - a), as wound, unnormalised: a tracer shades with it
  // without fetching the triangle's corners again (trace_closest and brute_force_closest).
  glm::vec3 normal{0.0f};
  MENISCUS_HD bool hit() const { return triangle != UINT32_MAX; }
};

// A built tree as the traversal reads it: its arrays wherever they live (host or device).
struct TriangleKdView {
  const TriangleKdNode* nodes = nullptr;  // preorder; null when no triangle is usable
  const uint32_t* leaf_triangles = nullptr;
  const LeafTriangle* leaf_geometry = nullptr;  // leaf_geometry[k] is triangle leaf_triangles[k]'s
  glm::vec3 lo{0.0f}, hi{0.0f};                 // the root's box
};

namespace traversal {

// The kd-tree's depth is bounded by the build's max_depth (64), so a fixed stack holds every
// pending far child.
constexpr int kStackSize = 128;

struct Pending {
  uint32_t node;
  float t_min, t_max;
  bool in_plane;  // pushed by a split whose plane holds the ray: it overlaps the near child
};

// Rounding puts a hit on a node's face a few ulps outside the node's parametric interval (and
// the split's t a few ulps off the interval's ends). Comparisons with a split's t are widened
// by this much, so such a node is visited: visiting one too many costs a little, missing one
// loses the hit.
constexpr float kRelativeSlack = 1e-5f;

// The interval [t0, t1] widened by that slack, for the comparisons with a split's t.
struct WideInterval {
  float t0, t1;
  MENISCUS_HD WideInterval(float t_min, float t_max)
      : t0(t_min - kRelativeSlack * std::abs(t_min)), t1(t_max + kRelativeSlack * std::abs(t_max)) {}
};

// The parametric interval in which `ray` crosses the box [lo, hi] (slab test), the box grown by
// the same relative slack; false when it misses it or only before t_min / after t_max (or
// reaches it only at infinity).
MENISCUS_HD inline bool clip_to_box(const Ray& ray, const glm::vec3& box_lo, const glm::vec3& box_hi, float& t0,
                                    float& t1) {
  const glm::vec3 pad = kRelativeSlack * (box_hi - box_lo) + kRelativeSlack * glm::abs(box_hi + box_lo);
  const glm::vec3 lo = box_lo - pad, hi = box_hi + pad;
  t0 = ray.t_min;
  t1 = ray.t_max;
  for (int axis = 0; axis < 3; ++axis) {
    const float inverse = 1.0f / ray.direction[axis];
    float near = (lo[axis] - ray.origin[axis]) * inverse, far = (hi[axis] - ray.origin[axis]) * inverse;
    if (near > far) {
      const float swap = near;
      near = far;
      far = swap;
    }
    // A ray parallel to the slab gives NaN from 0 * inf when it starts on a face: no limit then.
    if (!std::isnan(near)) t0 = t0 > near ? t0 : near;
    if (!std::isnan(far)) t1 = t1 < far ? t1 : far;
    if (t0 > t1) return false;
  }
  // A ray parallel to a slab, outside it on the side it heads from, enters at +inf: never. (Its
  // widened interval would be NaN, and the walk would visit every node.)
  return t0 < std::numeric_limits<float>::infinity();
}

}  // namespace traversal

// Möller–Trumbore against the triangle with corner `a` and edges e1 = b - a, e2 = c - a: the hit
// parameter t in [t_min, t_max], or nothing. Both faces count. Always inlined into the leaf loop,
// the traversal's hottest code: GCC called it out of line, which cost 4% of a trace.
[[gnu::always_inline]] MENISCUS_HD inline bool intersect_edges(const Ray& ray, const glm::vec3& a, const glm::vec3& e1,
                                                               const glm::vec3& e2, RayHit& hit) {
  const glm::vec3 p = glm::cross(ray.direction, e2);
  const float det = glm::dot(e1, p);
  if (det == 0.0f || !std::isfinite(det)) return false;
  const float inverse = 1.0f / det;
  const glm::vec3 s = ray.origin - a;
  const float u = glm::dot(s, p) * inverse;
  if (u < 0.0f || u > 1.0f) return false;
  const glm::vec3 q = glm::cross(s, e1);
  const float v = glm::dot(ray.direction, q) * inverse;
  if (v < 0.0f || u + v > 1.0f) return false;
  const float t = glm::dot(e2, q) * inverse;
  if (!(t >= ray.t_min && t <= ray.t_max)) return false;
  hit.t = t;
  hit.u = u;
  hit.v = v;
  return true;
}

namespace traversal {

// Closest hit among a leaf's triangles, ties to the lower id, into `best` (with kAny: the first
// hit). The leaf's geometry is the tree's own copy in leaf order (LeafTriangle): the corners'
// edges computed as the brute force computes them, so hits are equal to the bit.
template <bool kAny>
MENISCUS_HD bool test_leaf(const TriangleKdView& tree, const TriangleKdNode& leaf, Ray ray, RayHit& best) {
  bool found = false;
  const uint32_t first = leaf.right_or_first(), count = leaf.count();
  const LeafTriangle* geometry = tree.leaf_geometry + first;
  for (uint32_t k = 0; k < count; ++k) {
    RayHit hit;
    if (!intersect_edges(ray, geometry[k].a, geometry[k].e1, geometry[k].e2, hit)) continue;
    const uint32_t t = tree.leaf_triangles[first + k];
    hit.triangle = t;
    if (kAny) {
      best = hit;
      return true;
    }
    if (hit.t < best.t || (hit.t == best.t && t < best.triangle)) {
      best = hit;
      best.normal = glm::cross(geometry[k].e1, geometry[k].e2);
      found = true;
      ray.t_max = hit.t;  // later triangles of the leaf must be at least as close
    }
  }
  return found;
}

}  // namespace traversal

// §4's stack-based traversal: the near child is the one the ray enters first (the lower one
// when it heads up the split's axis); the far child is visited only when the ray reaches the
// split inside the node's interval. A leaf's hit ends the walk when it lies within that leaf's
// interval: any later leaf is further. kAny: the first hit found (shadow rays).
//
// A ray running in the split's plane (direction 0 on its axis, origin on it) gets a NaN t and
// visits both children over its whole interval: a triangle touching the plane from either side
// may be hit. While such a far child is pending, no hit ends the walk early: the near child's
// hit may lie beyond one in the far child.
//
// The interior step keeps its branches. A version with selects only (the far child always
// written above the stack's top, the top moved by 0 or 1) traced the water 28% slower: the next
// node's load then waits for the select, where a predicted branch fetches it at once.
template <bool kAny>
MENISCUS_HD RayHit traverse(const TriangleKdView& tree, const Ray& ray) {
  using namespace traversal;
  RayHit best;
  float t0, t1;
  if (!tree.nodes || !clip_to_box(ray, tree.lo, tree.hi, t0, t1)) return best;
  // The depth is at most 64 (validate_triangle_kd_params), and each node on the current path
  // holds at most one pending far child, so the top never passes 64.
  Pending stack[kStackSize];
  int top = 0;
  uint32_t node = 0;
  // Plain arrays: glm's vec3[axis] is a switch over the components, a branch per node.
  const float origin[3] = {ray.origin.x, ray.origin.y, ray.origin.z};
  const float inverse[3] = {1.0f / ray.direction.x, 1.0f / ray.direction.y,
                            1.0f / ray.direction.z};  // a multiply per node instead of a divide
  // Bit a: the ray heads down axis a (-0 included, so that near and far agree with the sign
  // of the infinite inverse), and the right child is near.
  const uint32_t downward = uint32_t(std::signbit(ray.direction.x)) | uint32_t(std::signbit(ray.direction.y)) << 1 |
                            uint32_t(std::signbit(ray.direction.z)) << 2;
  WideInterval wide(t0, t1);
  int in_plane = 0;  // pending far children of splits in whose plane the ray runs
  for (;;) {
    const TriangleKdNode n = tree.nodes[node];
    if (!n.is_leaf()) {
      const uint32_t axis = n.axis();
      const float t_split = (n.split() - origin[axis]) * inverse[axis];
      const bool right_near = (downward >> axis) & 1u;
      const uint32_t near = right_near ? n.right_or_first() : node + 1;
      const uint32_t far = right_near ? node + 1 : n.right_or_first();
      if (t_split > wide.t1) {  // the ray leaves the node before the split
        node = near;
      } else if (t_split < wide.t0) {  // it meets the split before entering the node
        node = far;
      } else {
        // Both children: the far one from the split on, the near one up to it. NaN (in the
        // plane) fails every comparison, and gives both the whole interval.
        const bool plane_holds_ray = t_split != t_split;  // NaN
        stack[top++] = {far, t_split > t0 ? (t_split < t1 ? t_split : t1) : t0, t1, plane_holds_ray};
        in_plane += plane_holds_ray;
        node = near;
        t1 = t_split < t1 ? (t_split > t0 ? t_split : t0) : t1;
        wide = WideInterval(t0, t1);
      }
      continue;
    }
    Ray leaf_ray = ray;
    leaf_ray.t_max = ray.t_max < best.t ? ray.t_max : best.t;
    if (test_leaf<kAny>(tree, n, leaf_ray, best)) {
      if (kAny || (best.t <= t1 && in_plane == 0)) return best;
    }
    if (top == 0) return best;
    const Pending p = stack[--top];
    node = p.node;
    t0 = p.t_min;
    t1 = p.t_max;
    in_plane -= p.in_plane;
    if (best.hit() && best.t < t0 && in_plane == 0) return best;  // nothing beyond can be closer
    wide = WideInterval(t0, t1);
  }
}

// A tree as the surface the tracers and the photons walk (whitted_path.h, photon_path.h).
struct TriangleKdSurface {
  TriangleKdView tree;
  MENISCUS_HD RayHit closest(const Ray& ray) const { return traverse<false>(tree, ray); }
  MENISCUS_HD bool any(const Ray& ray) const { return traverse<true>(tree, ray).hit(); }
};

}  // namespace meniscus::sim::kdtree
