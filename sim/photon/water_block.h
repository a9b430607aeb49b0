#pragma once
// A closed block of water for caustics and ray-tracing scenes and tests: a height-field top
// over [min.x, max.x] x [min.y, max.y] (x, z) on an n x n grid, a flat bottom at `bottom`, and
// four walls, so that every ray crossing it toggles between air and water.
#include <cstdint>
#include <functional>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

namespace meniscus::sim::photon {

struct TriangleSoup {
  std::vector<glm::vec3> vertices;
  std::vector<uint32_t> indices;  // three per triangle
};

// Throws InputError for n < 1, an empty rectangle, or a top that is not above the bottom
// everywhere on the grid (or not finite).
TriangleSoup water_block(uint32_t n, glm::vec2 min, glm::vec2 max, float bottom,
                         const std::function<float(float x, float z)>& top);

}  // namespace meniscus::sim::photon
