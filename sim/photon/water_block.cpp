// water_block (water_block.h).
#include "sim/photon/water_block.h"

#include <cmath>
#include <glm/geometric.hpp>
#include <string>

#include "engine/core/error.h"

namespace meniscus::sim::photon {

void TriangleSoup::add_quad(uint32_t a, uint32_t b, uint32_t c, uint32_t d, const glm::vec3& out) {
  const glm::vec3 normal = glm::cross(vertices[b] - vertices[a], vertices[c] - vertices[a]);
  if (glm::dot(normal, out) >= 0.0f)
    indices.insert(indices.end(), {a, b, c, a, c, d});
  else
    indices.insert(indices.end(), {a, d, c, a, c, b});
}

std::vector<BorderEdge> border_edges(uint32_t n) {
  const uint32_t row = n + 1;
  std::vector<BorderEdge> edges;
  edges.reserve(4 * size_t(n));
  for (uint32_t s = 0; s < n; ++s) {
    edges.push_back({s, s + 1, {0, 0, -1}});                       // z = min
    edges.push_back({s * row + n, (s + 1) * row + n, {1, 0, 0}});  // x = max
    edges.push_back({n * row + s, n * row + s + 1, {0, 0, 1}});    // z = max
    edges.push_back({s * row, (s + 1) * row, {-1, 0, 0}});         // x = min
  }
  return edges;
}

TriangleSoup water_block(uint32_t n, glm::vec2 min, glm::vec2 max, float bottom,
                         const std::function<float(float x, float z)>& top) {
  if (n < 1 || !(max.x > min.x && max.y > min.y)) throw InputError("water block: needs n >= 1 and a non-empty rectangle");
  TriangleSoup soup;
  const uint32_t row = n + 1;
  const auto vertex = [&](glm::vec3 p) {
    soup.vertices.push_back(p);
    return uint32_t(soup.vertices.size() - 1);
  };
  std::vector<uint32_t> up(size_t(row) * row), down(size_t(row) * row);
  for (uint32_t j = 0; j <= n; ++j)
    for (uint32_t i = 0; i <= n; ++i) {
      const float x = min.x + (max.x - min.x) * float(i) / float(n), z = min.y + (max.y - min.y) * float(j) / float(n);
      const float y = top(x, z);
      if (!(std::isfinite(y) && y > bottom))
        throw InputError("water block: the top at (" + std::to_string(x) + ", " + std::to_string(z) +
                         ") is not above the bottom");
      up[j * row + i] = vertex({x, y, z});
      down[j * row + i] = vertex({x, bottom, z});
    }
  for (uint32_t j = 0; j < n; ++j)
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t k = j * row + i;
      soup.indices.insert(soup.indices.end(), {up[k], up[k + row], up[k + row + 1], up[k], up[k + row + 1], up[k + 1]});
    }
  for (uint32_t j = 0; j < n; ++j)
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t k = j * row + i;
      soup.indices.insert(soup.indices.end(),
                          {down[k], down[k + 1], down[k + row + 1], down[k], down[k + row + 1], down[k + row]});
    }
  for (const BorderEdge& e : border_edges(n)) soup.add_quad(up[e.from], down[e.from], down[e.to], up[e.to], e.out);
  return soup;
}

}  // namespace meniscus::sim::photon
