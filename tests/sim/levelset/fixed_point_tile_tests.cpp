// 16-bit fixed-point tile storage (Jalba et al. 2013 §6.4) against 32-bit floats: the codec's
// exactness at the band's edges, the memory it saves, and what it costs a mean-curvature flow
// whose exact answer is known.
#include <catch2/catch.hpp>

#include <cmath>

#include "sim/levelset/curvature_flow.h"
#include "sim/levelset/fixed_point_phi.h"
#include "sim/levelset/level_set_builder.h"
#include "tests/sim/levelset/levelset_test_helpers.h"

namespace meniscus::sim::levelset {
namespace {

SortedTileList sphere(glm::vec3 centre, float radius, int domain, TilePrecision precision) {
  SortedTileList list(1.5f, 64, precision);
  build_from_sdf(list, testing::sphere(centre, radius), glm::ivec3(0), glm::ivec3(domain));
  return list;
}

// Half a quantum, plus the float rounding of φ near ±γ and of the scale (two ulps of γ).
double rounding_bound(float gamma) {
  return 0.5 * gamma / kFixedPhiMax + 2.0 * (std::nextafter(gamma, 2 * gamma) - gamma);
}

}  // namespace

TEST_CASE("fixed-point codes round-trip, keep the band's edges exact and round to nearest", "[levelset][fixed16]") {
  for (const float gamma : {1.0f, 1.5f, 3.0f}) {
    CHECK(decode_fixed_phi(encode_fixed_phi(gamma, gamma), gamma) == gamma);
    CHECK(decode_fixed_phi(encode_fixed_phi(-gamma, gamma), gamma) == -gamma);
    CHECK(encode_fixed_phi(0.0f, gamma) == 0);
    // Beyond the band (and NaN) saturate rather than wrap.
    CHECK(decode_fixed_phi(encode_fixed_phi(10 * gamma, gamma), gamma) == gamma);
    CHECK(decode_fixed_phi(encode_fixed_phi(-10 * gamma, gamma), gamma) == -gamma);
    CHECK(std::abs(decode_fixed_phi(encode_fixed_phi(NAN, gamma), gamma)) == gamma);
    int not_idempotent = 0, out_of_order = 0;
    float previous = -2 * gamma;
    for (int code = -kFixedPhiMax; code <= kFixedPhiMax; ++code) {
      const float phi = decode_fixed_phi(int16_t(code), gamma);
      not_idempotent += encode_fixed_phi(phi, gamma) != code;
      out_of_order += !(phi > previous);
      previous = phi;
    }
    CHECK(not_idempotent == 0);
    CHECK(out_of_order == 0);
    // Every value inside the band lands within half a quantum.
    double worst = 0;
    for (int i = 0; i <= 100000; ++i) {
      const float phi = -gamma + 2 * gamma * float(i) / 100000;
      worst = std::max(worst, double(std::abs(decode_fixed_phi(encode_fixed_phi(phi, gamma), gamma) - phi)));
    }
    INFO("gamma " << gamma << ": worst rounding " << worst << ", bound " << rounding_bound(gamma));
    CHECK(worst <= rounding_bound(gamma));
  }
}

TEST_CASE("a fixed16 list holds the same tiles as float32 in at most 55% of its memory", "[levelset][fixed16]") {
  const glm::vec3 centre(40.37f, 39.61f, 40.13f);
  const SortedTileList wide = sphere(centre, 30.0f, 80, TilePrecision::kFloat32);
  const SortedTileList narrow = sphere(centre, 30.0f, 80, TilePrecision::kFixed16);
  REQUIRE(narrow.size() == wide.size());
  double worst = 0;
  bool same = true;
  for (size_t i = 0; i < wide.size(); ++i) {
    const TileEntry a = wide.active()[i], b = narrow.active()[i];
    same = same && a.key == b.key && wide.activity(a.id) == narrow.activity(b.id) && wide.border(a.id) == narrow.border(b.id);
    for (int v = 0; v < kTileVoxels; ++v) worst = std::max(worst, double(std::abs(wide.value(a.id, v) - narrow.value(b.id, v))));
  }
  CHECK(same);
  CHECK(worst <= rounding_bound(1.5f));
  const double ratio = double(narrow.bytes()) / double(wide.bytes());
  INFO(wide.size() << " tiles: " << wide.bytes() << " bytes as float32, " << narrow.bytes() << " as fixed16 (" << ratio << ")");
  CHECK(ratio <= 0.55);
  CHECK(narrow.check_invariants().empty());
}

TEST_CASE("mean-curvature flow on fixed16 tiles stays within twice the float32 radius error", "[levelset][fixed16][mcf]") {
  const glm::vec3 centre(32.37f, 31.61f, 32.13f);
  const float r0 = 20.0f, alpha = 1.0f;
  CurvatureFlow flow(alpha);
  const float dt = flow.max_time_step();
  constexpr int kSteps = 100;
  const double expected = std::sqrt(r0 * r0 - 4.0 * alpha * kSteps * double(dt));
  double error[2] = {};
  for (const TilePrecision precision : {TilePrecision::kFloat32, TilePrecision::kFixed16}) {
    SortedTileList list = sphere(centre, r0, 64, precision);
    for (int step = 0; step < kSteps; ++step) {
      flow.step(list, dt);
      list.manage();
    }
    REQUIRE(testing::list_problems(list).empty());
    error[int(precision)] = std::abs(mean_crossing_distance(list, centre) - expected);
  }
  INFO("radius error after " << kSteps << " steps: float32 " << error[0] << ", fixed16 " << error[1] << " voxels");
  CHECK(error[0] < 0.05);
  CHECK(error[1] <= 2 * error[0]);
}

}  // namespace meniscus::sim::levelset
