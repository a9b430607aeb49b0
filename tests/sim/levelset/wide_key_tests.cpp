// 64-bit tile keys (-DMENISCUS_LEVELSET_WIDE_KEYS=ON): built into their own test executable
// together with the sorted-tile-list and curvature-flow tests, so the wide variant is checked in
// every CI run although the product ships with the paper's 32-bit keys.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <tuple>

#include "engine/core/error.h"
#include "sim/levelset/curvature_flow.h"
#include "sim/levelset/level_set_builder.h"
#include "tests/sim/levelset/levelset_test_helpers.h"

namespace meniscus::sim::levelset {

static_assert(sizeof(TileKey) == 8, "this executable is built with MENISCUS_LEVELSET_WIDE_KEYS");

TEST_CASE("64-bit keys order tiles lexicographically by (z, y, x) across the whole range", "[levelset][wide]") {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int32_t> coordinate(0, kMaxTile.x);
  for (int i = 0; i < 10000; ++i) {
    const TileCoord a{coordinate(rng), coordinate(rng), coordinate(rng)};
    const TileCoord b{coordinate(rng), coordinate(rng), coordinate(rng)};
    REQUIRE(coord_of(key_of(a)) == a);
    REQUIRE((key_of(a) < key_of(b)) == (std::tie(a.z, a.y, a.x) < std::tie(b.z, b.y, b.x)));
  }
}

TEST_CASE("a sphere 40000 voxels out, beyond 32-bit keys, evolves under mean-curvature flow", "[levelset][wide][mcf]") {
  // x = 40000 voxels is tile 10000, five times what a 32-bit key holds along x.
  const glm::vec3 centre(40032.37f, 31.61f, 60032.13f);
  const float r0 = 16.0f;
  SortedTileList list(1.5f);
  build_from_sdf(list, testing::sphere(centre, r0), {40000, 0, 60000}, {40064, 64, 60064});
  REQUIRE(list.size() > 0);
  CurvatureFlow flow(1.0f);
  const float dt = flow.max_time_step();
  for (int step = 1; step <= 40; ++step) {
    flow.step(list, dt);
    list.manage();
    REQUIRE(testing::list_problems(list).empty());
  }
  const double expected = std::sqrt(r0 * r0 - 4.0 * 40 * double(dt));
  // Mean crossing distance in float coordinates of 4e4 has ~0.004 voxel resolution.
  CHECK(std::abs(mean_crossing_distance(list, centre) - expected) < 0.05);
}

TEST_CASE("a domain beyond 64-bit tile keys is an error", "[levelset][wide][errors]") {
  SortedTileList list(1.5f);
  const int beyond = (kMaxTile.x + 1) * kTileSide;
  CHECK_THROWS_AS(build_from_sdf(list, testing::sphere({beyond + 8.0f, 8, 8}, 5), {beyond, 0, 0}, {beyond + 16, 16, 16}),
                  InputError);
}

}  // namespace meniscus::sim::levelset
