// Level sets from dense volumes: a field that is not a distance (a quadratic) must still give
// the sphere at the right radius with |∇φ| = 1 across the band.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "engine/core/error.h"
#include "sim/levelset/level_set_builder.h"
#include "sim/levelset/volume_level_set.h"
#include "tests/sim/levelset/levelset_test_helpers.h"

namespace meniscus::sim::levelset {
namespace {

// v = R² − |x − c|²: inside where v >= 0, gradient 2r (about 40 at the surface), not a distance.
std::vector<float> quadratic_ball(glm::ivec3 dims, glm::vec3 centre, float radius) {
  std::vector<float> values(size_t(dims.x) * dims.y * dims.z);
  for (int z = 0; z < dims.z; ++z)
    for (int y = 0; y < dims.y; ++y)
      for (int x = 0; x < dims.x; ++x) {
        const glm::vec3 d = glm::vec3(x, y, z) - centre;
        values[(size_t(z) * dims.y + y) * dims.x + x] = radius * radius - glm::dot(d, d);
      }
  return values;
}

}  // namespace

TEST_CASE("a dense quadratic field becomes the sphere's signed distance", "[levelset][volume]") {
  const glm::ivec3 dims(48, 44, 46);
  const glm::vec3 centre(23.3f, 21.8f, 22.6f);
  const float radius = 15.0f;
  const std::vector<float> values = quadratic_ball(dims, centre, radius);
  SortedTileList list(1.5f);
  const int margin = 2;
  const VolumeLevelSetStats stats = build_from_volume(list, {dims, values}, 0.0f, margin, 4, "ball");
  REQUIRE(list.check_invariants().empty());
  CHECK(stats.crossing_voxels > 1000);
  // Level-set voxel v is sample v - margin: the centre moves by the margin.
  const glm::vec3 shifted = centre + float(margin);
  const double measured = mean_crossing_distance(list, shifted);
  INFO("radius " << measured);
  CHECK(std::abs(measured - radius) < 0.05);
  // A distance function across the band: every active voxel within a voxel of the surface
  // holds the exact distance to 0.15 voxels.
  double worst = 0;
  for (const TileEntry& e : list.active()) {
    const TileCoord c = coord_of(e.key);
    for (int k = 0; k < kTileVoxels; ++k) {
      const glm::vec3 p = glm::vec3(c.x, c.y, c.z) * float(kTileSide) + glm::vec3(k % 4, k / 4 % 4, k / 16);
      const float exact = glm::length(p - shifted) - radius;
      if (std::abs(exact) < 1.0f) worst = std::max(worst, double(std::abs(list.value(e.id, k) - exact)));
    }
  }
  INFO("worst distance error " << worst);
  CHECK(worst < 0.15);
  // Every voxel of the band lies in an active tile.
  CHECK(testing::uncovered_band_voxels(list, testing::sphere(shifted, radius), {0, 0, 0}, dims + 2 * margin, 1.0f) == 0);
}

TEST_CASE("an object cut by the volume's edge is closed there", "[levelset][volume]") {
  // Everything at or above the iso value: the surface is the volume's boundary box itself.
  const glm::ivec3 dims(10, 12, 9);
  std::vector<float> values(size_t(dims.x) * dims.y * dims.z, 5.0f);
  values[0] = 1.0f;  // one sample below, so the iso value lies inside the data range
  SortedTileList list(1.5f);
  build_from_volume(list, {dims, values}, 3.0f, 1, 2, "box");
  REQUIRE(list.size() > 0);
  // With a one-voxel margin, level-set voxel 1 is the volume's first sample: inside, half a
  // voxel from the closing face; voxel 0 is the margin, outside.
  CHECK(value_at(list, {1, 6, 4}).value_or(1.0f) == Approx(-0.5f).margin(0.2));
  CHECK(value_at(list, {0, 6, 4}).value_or(-1.0f) == Approx(0.5f).margin(0.2));
}

TEST_CASE("bad dense volumes are errors naming the volume", "[levelset][volume][errors]") {
  SortedTileList list(1.5f);
  const std::vector<float> values(8, 1.0f);
  CHECK_THROWS_WITH(build_from_volume(list, {{2, 2, 2}, values}, 2.0f, 2, 0, "v.raw"), Catch::Contains("v.raw") && Catch::Contains("data range"));
  CHECK_THROWS_WITH(build_from_volume(list, {{2, 2, 3}, values}, 0.5f, 2, 0, "v.raw"), Catch::Contains("8 samples"));
  std::vector<float> nan_values = values;
  nan_values[3] = NAN;
  CHECK_THROWS_WITH(build_from_volume(list, {{2, 2, 2}, nan_values}, 0.5f, 2, 0, "v.raw"), Catch::Contains("sample 3"));
  CHECK_THROWS_AS(build_from_volume(list, {{0, 2, 2}, {}}, 0.5f, 2, 0, "v.raw"), InputError);
}

}  // namespace meniscus::sim::levelset
