// Level sets from triangle meshes against exact signed distances: a cube (whose closest
// features near its corners are edges and vertices, where face normals give wrong signs) and a
// finely tessellated sphere; and meshes without an inside rejected.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "engine/core/error.h"
#include "sim/levelset/level_set_builder.h"
#include "sim/levelset/mesh_level_set.h"
#include "test_meshes.h"

namespace meniscus::sim::levelset {
namespace {

using Catch::Matchers::Contains;

// Exact signed distance to the box [lo, hi] (negative inside).
float box_distance(glm::vec3 p, glm::vec3 lo, glm::vec3 hi) {
  const glm::vec3 centre = 0.5f * (lo + hi), half = 0.5f * (hi - lo);
  const glm::vec3 q = glm::abs(p - centre) - half;
  return glm::length(glm::max(q, glm::vec3(0.0f))) + std::min(std::max(q.x, std::max(q.y, q.z)), 0.0f);
}

}  // namespace

TEST_CASE("a cube's level set equals its exact signed distance, corners included", "[levelset][mesh]") {
  const TriangleMesh cube = test::unit_cube();
  const VoxelFrame frame = fit_frame(cube, 20, 3, "cube");  // 20 voxels across, 3 of margin
  SortedTileList list(1.5f);
  const MeshLevelSetStats stats = build_from_mesh(list, cube, frame, "cube");
  CHECK(list.check_invariants().empty());
  CHECK(stats.tiles == list.size());
  const glm::vec3 lo = -frame.origin / frame.voxel_size, hi = (glm::vec3(1.0f) - frame.origin) / frame.voxel_size;
  size_t compared = 0, wrong_sign = 0;
  float worst = 0.0f;
  for (const TileEntry& e : list.active()) {
    const TileCoord c = coord_of(e.key);
    for (int k = 0; k < kTileVoxels; ++k) {
      const glm::vec3 p = glm::vec3(c.x, c.y, c.z) * float(kTileSide) + glm::vec3(k % 4, k / 4 % 4, k / 16);
      const float exact = std::clamp(box_distance(p, lo, hi), -1.5f, 1.5f);
      const float got = list.value(e.id, k);
      worst = std::max(worst, std::abs(got - exact));
      wrong_sign += (got < 0) != (exact < 0) && std::abs(exact) > 1e-4f;
      ++compared;
    }
  }
  INFO("compared " << compared << " voxels, worst error " << worst << " voxels");
  CHECK(compared > 1000);
  CHECK(wrong_sign == 0);
  CHECK(worst < 1e-4f);
}

TEST_CASE("a tessellated sphere's level set has the sphere's radius", "[levelset][mesh]") {
  const float radius = 1.0f;
  const TriangleMesh sphere = test::icosphere(5, radius);  // 20480 triangles
  const VoxelFrame frame = fit_frame(sphere, 48, 4, "sphere");
  SortedTileList list(1.5f);
  build_from_mesh(list, sphere, frame, "sphere");
  CHECK(list.check_invariants().empty());
  const glm::vec3 centre = -frame.origin / frame.voxel_size;
  const double measured = mean_crossing_distance(list, centre) * frame.voxel_size;
  INFO("mean zero-crossing radius " << measured);
  // The inscribed polyhedron lies within 0.1% inside the sphere at this tessellation.
  CHECK(measured == Approx(radius).epsilon(0.003));
  // Just inside and just outside the surface, one voxel from it: negative inside.
  const float r = radius / frame.voxel_size;
  const auto inside = value_at(list, glm::ivec3(glm::round(centre + glm::vec3(r - 1.0f, 0, 0))));
  const auto outside = value_at(list, glm::ivec3(glm::round(centre + glm::vec3(0, r + 1.0f, 0))));
  REQUIRE(inside);
  REQUIRE(outside);
  CHECK(*inside < -0.4f);
  CHECK(*outside > 0.4f);
}

TEST_CASE("meshes without an inside are rejected with what is wrong", "[levelset][mesh][input]") {
  TriangleMesh cube = test::unit_cube();
  SECTION("a hole") {
    cube.triangles.pop_back();
    CHECK_THROWS_WITH(check_closed(cube, "open.ply"), Contains("open.ply") && Contains("3 boundary edges"));
  }
  SECTION("a flipped triangle") {
    std::swap(cube.triangles[0][1], cube.triangles[0][2]);
    CHECK_THROWS_WITH(check_closed(cube, "flipped.obj"), Contains("flipped.obj") && Contains("disagree on orientation"));
  }
  SECTION("a fin") {
    cube.vertices.push_back({0.5f, 0.5f, 2.0f});
    cube.triangles.push_back({0, 1, 8});
    CHECK_THROWS_WITH(check_closed(cube, "fin.ply"), Contains("non-manifold"));
  }
  SECTION("no triangles") {
    cube.triangles.clear();
    CHECK_THROWS_WITH(check_closed(cube, "empty.ply"), Contains("no triangles"));
  }
  SECTION("building refuses too") {
    cube.triangles.pop_back();
    SortedTileList list(1.5f);
    CHECK_THROWS_AS(build_from_mesh(list, cube, fit_frame(cube, 8, 2, "open"), "open"), InputError);
  }
}

}  // namespace meniscus::sim::levelset
