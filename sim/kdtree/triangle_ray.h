#pragma once
// Rays against triangles on the CPU: the kd-tree traversal (triangle_traversal.h) and the
// brute-force reference it is tested against. Both use the same ray-triangle test (Möller and
// Trumbore 1997), so equal hits are equal to the bit.
#include <cstdint>
#include <glm/vec3.hpp>
#include <span>

#include "sim/kdtree/triangle_kdtree.h"
#include "sim/kdtree/triangle_traversal.h"

namespace meniscus::sim::kdtree {

// The tree's arrays as the traversal reads them.
inline TriangleKdView view_of(const TriangleKdTree& tree) {
  return {tree.nodes.empty() ? nullptr : tree.nodes.data(), tree.leaf_triangles.data(), tree.leaf_geometry.data(),
          tree.lo, tree.hi};
}

// Möller–Trumbore: the hit parameter t of `ray` with triangle (a, b, c) in [t_min, t_max], or
// nothing. Both faces count.
bool intersect_triangle(const Ray& ray, const glm::vec3& a, const glm::vec3& b, const glm::vec3& c, RayHit& hit);

// The closest hit along `ray`, by traversal of `tree` (which holds its leaves' geometry).
RayHit trace_closest(const TriangleKdTree& tree, const Ray& ray);

// Whether anything lies on the ray within [t_min, t_max] (shadow rays: the first hit ends it).
bool trace_any(const TriangleKdTree& tree, const Ray& ray);

// Every triangle tested: the reference the traversal must equal. Ties in t go to the lower id.
RayHit brute_force_closest(std::span<const glm::vec3> vertices, std::span<const uint32_t> indices, const Ray& ray);

}  // namespace meniscus::sim::kdtree
