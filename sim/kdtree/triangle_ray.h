#pragma once
// Rays against triangles: the stack-based kd-tree traversal of Zhou et al. 2008 §4 (near child
// first, the far child pushed with its parametric interval, a leaf's hit accepted once it lies
// inside the leaf's interval) and the brute-force reference it is tested against. Both use the
// same ray-triangle test (Möller and Trumbore 1997), so equal hits are equal to the bit.
#include <cstdint>
#include <limits>
#include <span>

#include <glm/vec3.hpp>

#include "sim/kdtree/triangle_kdtree.h"

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
  bool hit() const { return triangle != UINT32_MAX; }
};

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
