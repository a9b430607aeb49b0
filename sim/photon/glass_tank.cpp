// water_in_glass_tank (glass_tank.h).
#include "sim/photon/glass_tank.h"

#include <cmath>
#include <glm/common.hpp>
#include <string>

#include "engine/core/error.h"

namespace meniscus::sim::photon {
namespace {

enum Media : uint8_t { kAirMedium, kWaterMedium, kGlassMedium };
enum Interfaces : uint8_t { kAirOverWater, kGlassAroundWater, kAirAroundGlass };

}  // namespace

OpticalMesh water_in_glass_tank(TriangleSoup water, uint32_t n, glm::vec2 min, glm::vec2 max, float wall, float rim) {
  if (!(std::isfinite(wall) && wall > 0.0f)) throw InputError("glass tank: the wall must be finite and > 0");
  const uint32_t row = n + 1;
  if (water.vertices.size() != 2 * size_t(row) * row || water.triangles() != 4 * n * n + 8 * n)
    throw InputError("glass tank: the water is not a water block of " + std::to_string(n) + " cells a side");
  const auto top = [&](uint32_t grid_point) { return 2 * grid_point; };
  for (uint32_t p = 0; p < row * row; ++p)
    if (!(rim > water.vertices[top(p)].y))
      throw InputError("glass tank: the rim (" + std::to_string(rim) + ") must be above the water everywhere");

  OpticalMesh tank;
  tank.optics.media = {kAir, kWater, kGlass};
  tank.optics.interfaces = {{kAirMedium, kWaterMedium}, {kGlassMedium, kWaterMedium}, {kAirMedium, kGlassMedium}};
  // The water's top faces the air, its bottom and walls the glass.
  tank.optics.triangle_interface.assign(water.triangles(), kGlassAroundWater);
  std::fill_n(tank.optics.triangle_interface.begin(), 2 * n * n, kAirOverWater);
  tank.mesh = std::move(water);
  TriangleSoup& m = tank.mesh;
  const auto vertex = [&](float x, float y, float z) {
    m.vertices.push_back({x, y, z});
    return uint32_t(m.vertices.size() - 1);
  };
  const auto glass_face = [&](uint32_t a, uint32_t b, uint32_t c, uint32_t d, const glm::vec3& out) {
    m.add_quad(a, b, c, d, out);
    tank.optics.triangle_interface.insert(tank.optics.triangle_interface.end(), 2, kAirAroundGlass);
  };

  // Inside, above the waterline: from each border edge of the waves up to the rim, facing in.
  for (const BorderEdge& e : border_edges(n)) {
    const glm::vec3 a = m.vertices[top(e.from)], b = m.vertices[top(e.to)];
    glass_face(top(e.from), top(e.to), vertex(b.x, rim, b.z), vertex(a.x, rim, a.z), -e.out);
  }
  // Outside: a box `wall` larger on every side but the top, and the rim's ring between the two.
  const float bottom = m.vertices[1].y - wall;
  const glm::vec2 lo = min - glm::vec2(wall), hi = max + glm::vec2(wall);
  uint32_t outer[2][4];  // [bottom, rim][corner (lo, lo), (hi, lo), (hi, hi), (lo, hi)]
  uint32_t inner[4];     // the rim's inner corners
  const glm::vec2 corners[4] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  for (int c = 0; c < 4; ++c) {
    const glm::vec2 o = glm::mix(lo, hi, corners[c]), i = glm::mix(min, max, corners[c]);
    outer[0][c] = vertex(o.x, bottom, o.y);
    outer[1][c] = vertex(o.x, rim, o.y);
    inner[c] = vertex(i.x, rim, i.y);
  }
  glass_face(outer[0][0], outer[0][1], outer[0][2], outer[0][3], {0, -1, 0});
  const glm::vec3 sides[4] = {{0, 0, -1}, {1, 0, 0}, {0, 0, 1}, {-1, 0, 0}};  // after corner c
  for (int c = 0; c < 4; ++c) {
    const int d = (c + 1) % 4;
    glass_face(outer[0][c], outer[0][d], outer[1][d], outer[1][c], sides[c]);
    glass_face(outer[1][c], outer[1][d], inner[d], inner[c], {0, 1, 0});
  }
  return tank;
}

}  // namespace meniscus::sim::photon
