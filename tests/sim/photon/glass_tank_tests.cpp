// The meshes the photons and the tracer cross: a water block whose every face points out, and
// water in a glass tank whose media each enclose the volume they should (the divergence theorem
// over the triangles that bound each one, wound towards their front medium); what Optics and
// the tank refuse.
#include <catch2/catch.hpp>
#include <cmath>
#include <glm/geometric.hpp>

#include "engine/core/error.h"
#include "sim/photon/glass_tank.h"

namespace meniscus::sim::photon {
namespace {

glm::vec3 corner(const TriangleSoup& m, uint32_t t, int c) { return m.vertices[m.indices[3 * t + c]]; }

// A triangle's share of the volume its mesh encloses when wound to face out.
double signed_volume(const TriangleSoup& m, uint32_t t) {
  const glm::dvec3 a = corner(m, t, 0), b = corner(m, t, 1), c = corner(m, t, 2);
  return glm::dot(a, glm::cross(b, c)) / 6.0;
}

// The volume of medium `medium`: its boundary's triangles, each counted outwards from it.
double medium_volume(const OpticalMesh& scene, uint8_t medium) {
  double volume = 0.0;
  for (uint32_t t = 0; t < scene.mesh.triangles(); ++t) {
    const Interface& i = scene.optics.interfaces[scene.optics.triangle_interface[t]];
    if (i.back == medium) volume += signed_volume(scene.mesh, t);
    if (i.front == medium) volume -= signed_volume(scene.mesh, t);
  }
  return volume;
}

}  // namespace

TEST_CASE("water block: every face points out, and together they enclose the water's volume", "[photon]") {
  // A sloping top, y = 0.3 + 0.1 x over [0, 1]^2, on a bottom at 0.1: 0.2 + 0.05 m^3.
  const TriangleSoup block =
      water_block(6, {0.0f, 0.0f}, {1.0f, 1.0f}, 0.1f, [](float x, float) { return 0.3f + 0.1f * x; });
  double volume = 0.0;
  const glm::vec3 centre{0.5f, 0.2f, 0.5f};
  for (uint32_t t = 0; t < block.triangles(); ++t) {
    volume += signed_volume(block, t);
    const glm::vec3 a = corner(block, t, 0), b = corner(block, t, 1), c = corner(block, t, 2);
    INFO("triangle " << t);
    CHECK(glm::dot(glm::cross(b - a, c - a), (a + b + c) / 3.0f - centre) > 0.0f);
  }
  CHECK(volume == Approx(0.25).epsilon(1e-5));
}

TEST_CASE("glass tank: water and glass each enclose their volume, with one triangle where they meet", "[photon]") {
  const uint32_t n = 8;
  const float depth = 0.5f, wall = 0.03f, rim = 0.65f;
  TriangleSoup water = water_block(n, {-1.0f, -1.0f}, {1.0f, 1.0f}, 0.0f, [&](float, float) { return depth; });
  const uint32_t water_triangles = water.triangles();
  const OpticalMesh tank = water_in_glass_tank(std::move(water), n, {-1.0f, -1.0f}, {1.0f, 1.0f}, wall, rim);
  REQUIRE_NOTHROW(tank.optics.validate(tank.mesh.triangles()));
  REQUIRE(tank.optics.media.size() == 3);
  CHECK(tank.optics.media[1].ior == kWater.ior);
  CHECK(tank.optics.media[2].ior == kGlass.ior);
  // The water's own triangles are its boundary: the top against the air, the rest against glass.
  CHECK(tank.mesh.triangles() == water_triangles + 8 * n + 18);
  CHECK(medium_volume(tank, 1) == Approx(2.0 * 2.0 * depth).epsilon(1e-5));
  const double outer = 2.0 + 2.0 * wall;
  CHECK(medium_volume(tank, 2) == Approx(outer * outer * (rim + wall) - 2.0 * 2.0 * rim).epsilon(1e-5));
  // The air is everything else: its boundary is theirs, seen from outside.
  CHECK(medium_volume(tank, 0) == Approx(-(medium_volume(tank, 1) + medium_volume(tank, 2))).epsilon(1e-5));
}

TEST_CASE("empty glass tank: its glass encloses the walls' volume, and a fluid inside keeps toggling", "[photon]") {
  // A closed water mesh of unknown winding (toggling), then a tank around [0, 1] x [0, 0.5] x [0, 0.25].
  OpticalMesh scene{water_block(3, {0.2f, 0.05f}, {0.8f, 0.2f}, 0.1f, [](float, float) { return 0.3f; }), Optics{}};
  const uint32_t fluid = scene.mesh.triangles();
  const glm::vec3 lo{0.0f, 0.0f, 0.0f}, hi{1.0f, 0.5f, 0.25f};
  const float wall = 0.02f;
  add_empty_glass_tank(scene, lo, hi, wall);
  REQUIRE_NOTHROW(scene.optics.validate(scene.mesh.triangles()));
  REQUIRE(scene.optics.media.size() == 3);
  CHECK(scene.optics.media[2].ior == kGlass.ior);
  for (uint32_t t = 0; t < fluid; ++t) CHECK(scene.optics.triangle_interface[t] == kToggleAirWater);
  // The fluid's crossings toggle whichever way a ray meets them; the glass's follow the winding.
  const glm::vec3 up{0, 1, 0}, down{0, -1, 0};
  CHECK(scene.optics.crossing(0, up, down, 0).to == 1);
  CHECK(scene.optics.crossing(0, up, up, 1).to == 0);
  const uint32_t bottom = fluid;  // the tank's inside bottom, facing up into the air
  const glm::vec3 a = corner(scene.mesh, bottom, 0),
                  face = glm::cross(corner(scene.mesh, bottom, 1) - a, corner(scene.mesh, bottom, 2) - a);
  CHECK(scene.optics.crossing(bottom, face, down, 0).to == 2);
  CHECK(scene.optics.crossing(bottom, face, up, 2).to == 0);
  double glass = 0.0;
  for (uint32_t t = fluid; t < scene.mesh.triangles(); ++t) glass += signed_volume(scene.mesh, t);
  const double outside = (1.0 + 2 * wall) * (0.25 + 2 * wall) * (0.5 + wall), inside = 1.0 * 0.25 * 0.5;
  CHECK(glass == Approx(outside - inside).epsilon(1e-5));

  CHECK_THROWS_WITH(add_empty_glass_tank(scene, hi, lo, wall), Catch::Contains("min < max"));
  CHECK_THROWS_WITH(add_empty_glass_tank(scene, lo, hi, -1.0f), Catch::Contains("wall"));
}

TEST_CASE("glass tank and optics: bad walls, rims, water and media are refused by name", "[photon]") {
  const auto block = [] { return water_block(4, {0.0f, 0.0f}, {1.0f, 1.0f}, 0.0f, [](float, float) { return 0.5f; }); };
  CHECK_THROWS_WITH(water_in_glass_tank(block(), 4, {0, 0}, {1, 1}, 0.0f, 1.0f), Catch::Contains("wall"));
  CHECK_THROWS_WITH(water_in_glass_tank(block(), 4, {0, 0}, {1, 1}, NAN, 1.0f), Catch::Contains("wall"));
  CHECK_THROWS_WITH(water_in_glass_tank(block(), 4, {0, 0}, {1, 1}, 0.01f, 0.5f), Catch::Contains("rim"));
  CHECK_THROWS_WITH(water_in_glass_tank(block(), 5, {0, 0}, {1, 1}, 0.01f, 1.0f), Catch::Contains("water block"));

  const OpticalMesh tank = water_in_glass_tank(block(), 4, {0, 0}, {1, 1}, 0.01f, 1.0f);
  const size_t triangles = tank.mesh.triangles();
  CHECK_THROWS_WITH(tank.optics.validate(triangles - 1), Catch::Contains("triangle interfaces"));
  Optics bad = tank.optics;
  bad.triangle_interface[7] = 9;
  CHECK_THROWS_WITH(bad.validate(triangles), Catch::Contains("interface 9"));
  bad = tank.optics;
  bad.interfaces[0].back = 3;
  CHECK_THROWS_WITH(bad.validate(triangles), Catch::Contains("interface 0"));
  bad = tank.optics;
  bad.media[2].ior = NAN;
  CHECK_THROWS_WITH(bad.validate(triangles), Catch::Contains("medium 2"));
  bad = tank.optics;
  bad.media[1].absorption.y = -1.0f;
  CHECK_THROWS_WITH(bad.validate(triangles), Catch::Contains("medium 1"));
  bad.media.resize(1);
  CHECK_THROWS_WITH(bad.validate(triangles), Catch::Contains("media"));
}

}  // namespace meniscus::sim::photon
