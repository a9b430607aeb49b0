// Ray traversal of the triangle kd-tree (triangle_ray.h).
#include "sim/kdtree/triangle_ray.h"

#include <glm/geometric.hpp>

namespace meniscus::sim::kdtree {

bool intersect_triangle(const Ray& ray, const glm::vec3& a, const glm::vec3& b, const glm::vec3& c, RayHit& hit) {
  return intersect_edges(ray, a, b - a, c - a, hit);
}

RayHit trace_closest(const TriangleKdTree& tree, const Ray& ray) { return traverse<false>(view_of(tree), ray); }

bool trace_any(const TriangleKdTree& tree, const Ray& ray) { return traverse<true>(view_of(tree), ray).hit(); }

RayHit brute_force_closest(std::span<const glm::vec3> vertices, std::span<const uint32_t> indices, const Ray& ray) {
  RayHit best;
  for (uint32_t t = 0; t < indices.size() / 3; ++t) {
    RayHit hit;
    if (!intersect_triangle(ray, vertices[indices[3 * t]], vertices[indices[3 * t + 1]], vertices[indices[3 * t + 2]], hit))
      continue;
    if (hit.t < best.t || (hit.t == best.t && t < best.triangle)) {
      best = hit;
      best.triangle = t;
    }
  }
  if (best.hit()) {
    const glm::vec3 a = vertices[indices[3 * best.triangle]];
    best.normal =
        glm::cross(vertices[indices[3 * best.triangle + 1]] - a, vertices[indices[3 * best.triangle + 2]] - a);
  }
  return best;
}

}  // namespace meniscus::sim::kdtree
