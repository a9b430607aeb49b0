// water_block (water_block.h).
#include "sim/photon/water_block.h"

#include <cmath>
#include <string>

#include "engine/core/error.h"

namespace meniscus::sim::photon {

TriangleSoup water_block(uint32_t n, glm::vec2 min, glm::vec2 max, float bottom,
                         const std::function<float(float x, float z)>& top) {
  if (n < 1 || !(max.x > min.x && max.y > min.y)) throw InputError("water block: needs n >= 1 and a non-empty rectangle");
  TriangleSoup soup;
  const uint32_t row = n + 1;
  const auto vertex = [&](glm::vec3 p) {
    soup.vertices.push_back(p);
    return uint32_t(soup.vertices.size() - 1);
  };
  const auto quad = [&](uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
    soup.indices.insert(soup.indices.end(), {a, b, c, a, c, d});
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
      quad(up[k], up[k + row], up[k + row + 1], up[k + 1]);
      quad(down[k], down[k + 1], down[k + row + 1], down[k + row]);
    }
  for (uint32_t s = 0; s < n; ++s) {  // the walls, along the grid's border
    const uint32_t edges[4][2] = {{s, s + 1}, {s * row + n, (s + 1) * row + n}, {n * row + s, n * row + s + 1},
                                  {s * row, (s + 1) * row}};
    for (const auto& e : edges) quad(up[e[0]], down[e[0]], down[e[1]], up[e[1]]);
  }
  return soup;
}

}  // namespace meniscus::sim::photon
