// Mean-curvature flow on the sorted tile list against the analytic sphere.
#include <catch2/catch.hpp>

#include <cmath>

#include "sim/levelset/curvature_flow.h"
#include "sim/levelset/level_set_builder.h"

namespace meniscus::sim::levelset {
namespace {

// Mean distance from `centre` of the zero crossings of φ along grid edges (linear
// interpolation), over all active tiles: the sphere's radius as the level set sees it.
double measured_radius(const SortedTileList& list, glm::vec3 centre) {
  double sum = 0;
  size_t count = 0;
  for (const TileEntry& e : list.active()) {
    const TileCoord c = coord_of(e.key);
    for (int z = 0; z < kTileSide; ++z)
      for (int y = 0; y < kTileSide; ++y)
        for (int x = 0; x < kTileSide; ++x) {
          const glm::ivec3 p = glm::ivec3(c.x, c.y, c.z) * kTileSide + glm::ivec3(x, y, z);
          const float a = *value_at(list, p);
          for (int axis = 0; axis < 3; ++axis) {
            glm::ivec3 q = p;
            ++q[axis];
            const std::optional<float> other = value_at(list, q);
            if (!other) continue;  // no tile: beyond the band, no crossing can be there
            const float b = *other;
            if ((a < 0) == (b < 0)) continue;
            const float t = a / (a - b);
            glm::vec3 crossing(p);
            crossing[axis] += t;
            sum += glm::length(crossing - centre);
            ++count;
          }
        }
  }
  return count ? sum / double(count) : 0.0;
}

}  // namespace

TEST_CASE("a sphere under mean-curvature flow follows r^2 = r0^2 - 4 alpha t", "[levelset][mcf]") {
  const glm::vec3 centre(32.37f, 31.61f, 32.13f);  // off-grid, so no symmetry hides errors
  const float r0 = 20.0f, alpha = 1.0f;
  SortedTileList list(1.5f);
  build_from_sdf(list, [&](glm::vec3 p) { return glm::length(p - centre) - r0; }, {0, 0, 0}, {64, 64, 64});
  CurvatureFlow flow(alpha);
  const float dt = flow.max_time_step();
  const double start = measured_radius(list, centre);
  INFO("initial measured radius " << start);
  CHECK(std::abs(start - r0) < 0.02);
  double worst = 0;
  for (int step = 1; step <= 100; ++step) {
    flow.step(list, dt);
    list.manage();
    REQUIRE(list.check_invariants().empty());
    if (step % 10 == 0) {
      const double t = step * double(dt);
      const double expected = std::sqrt(r0 * r0 - 4.0 * alpha * t);
      const double got = measured_radius(list, centre);
      worst = std::max(worst, std::abs(got - expected));
      UNSCOPED_INFO("t " << t << ": radius " << got << " vs " << expected);
    }
  }
  INFO("worst radius error " << worst << " voxels");
  CHECK(worst < 0.05);
}

}  // namespace meniscus::sim::levelset
