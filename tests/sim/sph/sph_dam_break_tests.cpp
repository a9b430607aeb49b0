// The dam break against Martin & Moyce's measurements and Ritter's inviscid bound.
#include <catch2/catch.hpp>

#include <cmath>

#include "dam_break.h"

namespace meniscus::test {
namespace {

constexpr float kA = 0.05715f;  // Martin & Moyce's column: 2.25 in wide, 4.5 in high

// The table's own T values up to 2.5 (2.51 is the last one within it).
const std::vector<double> kTableT = {0.41, 0.84, 1.19, 1.43, 1.63, 1.83, 1.98, 2.20, 2.32, 2.51};

}  // namespace

TEST_CASE("dam-break surge front within 10% of Martin & Moyce for T <= 2.5", "[sph][dam_break]") {
  // 16 particles across the column (8192 particles); the floor's friction is the one fitted
  // parameter (sph.boundary_viscosity, see scenes/dam_break.toml), frictionless runs below.
  DamBreak setup{kA, 16, 0.5f * kA, 1e-3f};
  const std::vector<FrontSample> samples = run_dam_break(setup, kTableT);
  for (const FrontSample& s : samples) {
    const double measured = martin_moyce_front(s.T);
    INFO("T = " << s.T << ": Z = " << s.Z << ", Martin & Moyce " << measured);
    CHECK(std::abs(s.Z / measured - 1.0) <= 0.10);
    CHECK(s.Z < 1.0 + 2.0 * s.T);
  }
}

TEST_CASE("frictionless dam break stays below Ritter's bound and ahead of the experiment", "[sph][dam_break]") {
  // Without friction the surge runs ahead of the measurements (as inviscid SPH is known to),
  // but never faster than the shallow-water solution Z = 1 + 2T.
  DamBreak setup{kA, 12, 0.5f * kA, 0.0f};
  std::vector<double> times;
  for (double T = 0.25; T <= 3.0; T += 0.25) times.push_back(T);
  const std::vector<FrontSample> samples = run_dam_break(setup, times);
  for (const FrontSample& s : samples) {
    INFO("T = " << s.T << ": Z = " << s.Z);
    CHECK(s.Z > 1.0);
    CHECK(s.Z < 1.0 + 2.0 * s.T);
    if (s.T >= 1.0) CHECK(s.Z > martin_moyce_front(s.T));
  }
}

}  // namespace meniscus::test
