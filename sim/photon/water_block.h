#pragma once
// A closed block of water for caustics and ray-tracing scenes and tests: a height-field top
// over [min.x, max.x] x [min.y, max.y] (x, z) on an n x n grid, a flat bottom at `bottom`, and
// four walls, so that every ray crossing it toggles between air and water. Every triangle is
// wound to face out.
//
// The layout, which glass_tank.h builds on: vertex 2 (j (n + 1) + i) is the top over grid point
// (i, j) (x with i, z with j), the next one the bottom under it; the top's 2n² triangles come
// first, then the bottom's, then the walls'.
#include <cstdint>
#include <functional>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

namespace meniscus::sim::photon {

struct TriangleSoup {
  std::vector<glm::vec3> vertices;
  std::vector<uint32_t> indices;  // three per triangle

  uint32_t triangles() const { return uint32_t(indices.size() / 3); }
  // The quad a, b, c, d as two triangles, wound so that their normal has a positive component
  // along `out`.
  void add_quad(uint32_t a, uint32_t b, uint32_t c, uint32_t d, const glm::vec3& out);
};

// The grid's border as 4n edges between grid points j (n + 1) + i, each with the direction
// out of the block there.
struct BorderEdge {
  uint32_t from, to;
  glm::vec3 out;
};
std::vector<BorderEdge> border_edges(uint32_t n);

// Throws InputError for n < 1, an empty rectangle, or a top that is not above the bottom
// everywhere on the grid (or not finite).
TriangleSoup water_block(uint32_t n, glm::vec2 min, glm::vec2 max, float bottom,
                         const std::function<float(float x, float z)>& top);

}  // namespace meniscus::sim::photon
