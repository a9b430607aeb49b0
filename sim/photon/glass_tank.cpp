// water_in_glass_tank (glass_tank.h).
#include "sim/photon/glass_tank.h"

#include <cmath>
#include <glm/common.hpp>
#include <glm/vector_relational.hpp>
#include <string>

#include "engine/core/error.h"

namespace meniscus::sim::photon {
namespace {

enum Media : uint8_t { kAirMedium, kWaterMedium, kGlassMedium };
enum Interfaces : uint8_t { kAirOverWater, kGlassAroundWater, kAirAroundGlass };

uint32_t add_vertex(TriangleSoup& m, float x, float y, float z) {
  m.vertices.push_back({x, y, z});
  return uint32_t(m.vertices.size() - 1);
}

void add_face(OpticalMesh& scene, uint32_t a, uint32_t b, uint32_t c, uint32_t d, const glm::vec3& out,
              uint8_t interface) {
  scene.mesh.add_quad(a, b, c, d, out);
  scene.optics.triangle_interface.insert(scene.optics.triangle_interface.end(), 2, interface);
}

// The glass's outside around the inside [min, max] (x, z) from `inner_bottom` to `rim`: a box
// `wall` larger on every side but the top, and the rim's ring between the two.
void add_outer_glass(OpticalMesh& scene, glm::vec2 min, glm::vec2 max, float inner_bottom, float rim, float wall,
                     uint8_t air_around_glass) {
  TriangleSoup& m = scene.mesh;
  const glm::vec2 lo = min - glm::vec2(wall), hi = max + glm::vec2(wall);
  uint32_t outer[2][4];  // [bottom, rim][corner (lo, lo), (hi, lo), (hi, hi), (lo, hi)]
  uint32_t inner[4];     // the rim's inner corners
  const glm::vec2 corners[4] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  for (int c = 0; c < 4; ++c) {
    const glm::vec2 o = glm::mix(lo, hi, corners[c]), i = glm::mix(min, max, corners[c]);
    outer[0][c] = add_vertex(m, o.x, inner_bottom - wall, o.y);
    outer[1][c] = add_vertex(m, o.x, rim, o.y);
    inner[c] = add_vertex(m, i.x, rim, i.y);
  }
  add_face(scene, outer[0][0], outer[0][1], outer[0][2], outer[0][3], {0, -1, 0}, air_around_glass);
  const glm::vec3 sides[4] = {{0, 0, -1}, {1, 0, 0}, {0, 0, 1}, {-1, 0, 0}};  // after corner c
  for (int c = 0; c < 4; ++c) {
    const int d = (c + 1) % 4;
    add_face(scene, outer[0][c], outer[0][d], outer[1][d], outer[1][c], sides[c], air_around_glass);
    add_face(scene, outer[1][c], outer[1][d], inner[d], inner[c], {0, 1, 0}, air_around_glass);
  }
}

void require_wall(float wall) {
  if (!(std::isfinite(wall) && wall > 0.0f)) throw InputError("glass tank: the wall must be finite and > 0");
}

}  // namespace

OpticalMesh water_in_glass_tank(TriangleSoup water, uint32_t n, glm::vec2 min, glm::vec2 max, float wall, float rim) {
  require_wall(wall);
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
  // Inside, above the waterline: from each border edge of the waves up to the rim, facing in.
  for (const BorderEdge& e : border_edges(n)) {
    const glm::vec3 a = m.vertices[top(e.from)], b = m.vertices[top(e.to)];
    add_face(tank, top(e.from), top(e.to), add_vertex(m, b.x, rim, b.z), add_vertex(m, a.x, rim, a.z), -e.out,
             kAirAroundGlass);
  }
  add_outer_glass(tank, min, max, m.vertices[1].y, rim, wall, kAirAroundGlass);
  return tank;
}

void validate_empty_glass_tank(glm::vec3 inner_min, glm::vec3 inner_max, float wall) {
  require_wall(wall);
  if (!(glm::all(glm::lessThan(inner_min, inner_max)) && std::isfinite(inner_min.x + inner_min.y + inner_min.z) &&
        std::isfinite(inner_max.x + inner_max.y + inner_max.z)))
    throw InputError("glass tank: its inside must be a finite box with min < max");
}

void add_empty_glass_tank(OpticalMesh& scene, glm::vec3 inner_min, glm::vec3 inner_max, float wall) {
  validate_empty_glass_tank(inner_min, inner_max, wall);
  Optics& o = scene.optics;
  if (o.media.size() >= 255 || o.interfaces.size() >= kToggleAirWater)
    throw InputError("glass tank: no room for another medium or interface");
  if (o.triangle_interface.empty()) o.triangle_interface.assign(scene.mesh.triangles(), kToggleAirWater);
  o.media.push_back(kGlass);
  o.interfaces.push_back({0, uint8_t(o.media.size() - 1)});
  const uint8_t air_around_glass = uint8_t(o.interfaces.size() - 1);

  TriangleSoup& m = scene.mesh;
  const glm::vec3 lo = inner_min, hi = inner_max;
  // The inside: its bottom and four walls up to the rim, facing into the tank.
  const uint32_t b[4] = {add_vertex(m, lo.x, lo.y, lo.z), add_vertex(m, hi.x, lo.y, lo.z),
                         add_vertex(m, hi.x, lo.y, hi.z), add_vertex(m, lo.x, lo.y, hi.z)};
  const uint32_t t[4] = {add_vertex(m, lo.x, hi.y, lo.z), add_vertex(m, hi.x, hi.y, lo.z),
                         add_vertex(m, hi.x, hi.y, hi.z), add_vertex(m, lo.x, hi.y, hi.z)};
  add_face(scene, b[0], b[1], b[2], b[3], {0, 1, 0}, air_around_glass);
  const glm::vec3 inwards[4] = {{0, 0, 1}, {-1, 0, 0}, {0, 0, -1}, {1, 0, 0}};  // the wall after corner c
  for (int c = 0; c < 4; ++c) add_face(scene, b[c], b[(c + 1) % 4], t[(c + 1) % 4], t[c], inwards[c], air_around_glass);
  add_outer_glass(scene, {lo.x, lo.z}, {hi.x, hi.z}, lo.y, hi.y, wall, air_around_glass);
}

}  // namespace meniscus::sim::photon
