// Mean-curvature flow on the sorted tile list against the analytic sphere.
#include <catch2/catch.hpp>

#include <cmath>

#include "sim/levelset/curvature_flow.h"
#include "sim/levelset/level_set_builder.h"
#include "tests/sim/levelset/levelset_test_helpers.h"

namespace meniscus::sim::levelset {

TEST_CASE("a sphere under mean-curvature flow follows r^2 = r0^2 - 4 alpha t", "[levelset][mcf]") {
  const glm::vec3 centre(32.37f, 31.61f, 32.13f);  // off-grid, so no symmetry hides errors
  const float r0 = 20.0f, alpha = 1.0f;
  SortedTileList list(1.5f);
  build_from_sdf(list, [&](glm::vec3 p) { return glm::length(p - centre) - r0; }, {0, 0, 0}, {64, 64, 64});
  CurvatureFlow flow(alpha);
  const float dt = flow.max_time_step();
  const double start = mean_crossing_distance(list, centre);
  INFO("initial measured radius " << start);
  CHECK(std::abs(start - r0) < 0.02);
  double worst = 0;
  for (int step = 1; step <= 100; ++step) {
    flow.step(list, dt);
    list.manage();
    INFO(testing::list_problems(list));
    REQUIRE(testing::list_problems(list).empty());
    if (step % 10 == 0) {
      const double t = step * double(dt);
      const double expected = std::sqrt(r0 * r0 - 4.0 * alpha * t);
      const double got = mean_crossing_distance(list, centre);
      worst = std::max(worst, std::abs(got - expected));
      UNSCOPED_INFO("t " << t << ": radius " << got << " vs " << expected);
    }
  }
  INFO("worst radius error " << worst << " voxels");
  CHECK(worst < 0.05);
}

}  // namespace meniscus::sim::levelset
