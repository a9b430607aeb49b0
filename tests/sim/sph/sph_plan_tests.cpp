// How a frame is cut into substeps and how long its solves may iterate, decided before the frame
// from an earlier frame's outcome (sim/sph/sph_frame_plan.h), on the CPU backend's terms.
#include <catch2/catch.hpp>

#include <cmath>
#include <numeric>

#include "sim/common/simulation_error.h"
#include "sim/sph/sph_cpu.h"
#include "sim/sph/sph_frame_plan.h"

namespace meniscus::sim {
namespace {

SphParams small_tank() {
  SphParams p;
  p.particle_radius = 0.005f;
  const float d = p.diameter();
  p.domain = {{0, 0, 0}, {10 * d, 20 * d, 10 * d}};
  p.fills.push_back({{{0, 0, 0}, {10 * d, 10 * d, 10 * d}}, {0, 0, 0}});
  return p;
}

}  // namespace

TEST_CASE("an adaptive frame covers dt with CFL steps for the recorded speed plus free fall", "[sph][plan]") {
  const SphParams params = small_tank();
  sph::FrameOutcome recorded;
  recorded.time = 1.0;
  recorded.max_speed = 1.0f;  // a CFL step below max_dt
  sph::FramePlanner planner;
  double pending = 0.0;
  const sph::FramePlan plan = planner.plan(params, 1.0 / 30.0, 1.0, pending, recorded, "sph (cpu)");
  REQUIRE(plan.substeps.size() > 2);
  CHECK(std::accumulate(plan.substeps.begin(), plan.substeps.end(), 0.0) == Approx(1.0 / 30.0).epsilon(1e-6));
  double start = 0.0;
  for (size_t k = 0; k < plan.substeps.size(); ++k) {
    const double bound = 1.0 + 9.81 * start;
    INFO("substep " << k << " at +" << start << " s: " << plan.substeps[k] << " s");
    CHECK(plan.substeps[k] <= params.cfl * params.diameter() / bound * 1.0001);
    start += plan.substeps[k];
  }
  // Later substeps are shorter: the bound grows with the time fallen since the record.
  CHECK(plan.substeps[1] < plan.substeps[0]);
  CHECK(pending == 0.0);
}

TEST_CASE("a fixed-step frame takes whole steps and carries the rest", "[sph][plan]") {
  SphParams params = small_tank();
  params.adaptive = false;
  params.fixed_dt = 1.0f / 256;  // exact in binary, so the counts below are too
  sph::FramePlanner planner;
  double pending = 0.0;
  const sph::FramePlan a = planner.plan(params, 0.01, 0.0, pending, {}, "sph (cpu)");
  CHECK(a.substeps.size() == 2);
  CHECK(pending == Approx(0.01 - 2.0 / 256));
  const sph::FramePlan b = planner.plan(params, 0.01, 0.01, pending, {}, "sph (cpu)");
  CHECK(b.substeps.size() == 3);
  CHECK(pending == Approx(0.02 - 5.0 / 256));
}

TEST_CASE("solve budgets follow the most iterations a recorded frame needed", "[sph][plan]") {
  SphParams params = small_tank();
  params.max_iterations = 40;
  sph::FramePlanner planner;
  double pending = 0.0;
  sph::FrameOutcome recorded;  // the reset state: nothing measured yet
  sph::FramePlan plan = planner.plan(params, 0.01, 0.0, pending, recorded, "sph (cpu)");
  CHECK(plan.density_budget == 40);
  CHECK(plan.divergence_budget == 40);
  recorded.density_iterations = 6;
  recorded.divergence_iterations = 1;
  plan = planner.plan(params, 0.01, 0.0, pending, recorded, "sph (cpu)");
  CHECK(plan.density_budget == 12);
  CHECK(plan.divergence_budget == 4);
  // A frame without solves (no particles, no whole step) keeps the budgets of the last one.
  recorded.density_iterations = recorded.divergence_iterations = -1;
  plan = planner.plan(params, 0.01, 0.0, pending, recorded, "sph (cpu)");
  CHECK(plan.density_budget == 12);
  CHECK(plan.divergence_budget == 4);
  recorded.density_iterations = 30;
  plan = planner.plan(params, 0.01, 0.0, pending, recorded, "sph (cpu)");
  CHECK(plan.density_budget == 40);  // capped by max_iterations
}

TEST_CASE("a solve that cannot reach its tolerance within its budget is counted", "[sph][plan]") {
  SphParams params = small_tank();
  params.domain.max[0] *= 2.0f;  // the column collapses: every solve has work to do
  params.adaptive = false;
  params.fixed_dt = 0.002f;
  params.density_tolerance = 1e-12f;  // out of reach in float
  params.divergence_tolerance = 1e-12f;
  params.max_iterations = 6;
  SphCpu sph(params);
  uint64_t substeps = 0;
  for (int frame = 0; frame < 3; ++frame) {
    sph.step(0.01);
    substeps += uint64_t(sph.stats().substeps);
  }
  const SphStats& s = sph.stats();
  REQUIRE(substeps >= 12);
  // Both solves of every substep stopped at max_iterations, but the very first divergence solve:
  // the fluid starts at rest, with no divergence to remove.
  CHECK(s.unconverged == 2 * substeps - 1);
  CHECK(s.density_iterations == 6);
  CHECK(s.divergence_iterations == 6);

  // The same fluid with the default tolerances converges within its budgets.
  params = small_tank();
  params.domain.max[0] *= 2.0f;
  SphCpu calm(params);
  for (int frame = 0; frame < 3; ++frame) calm.step(1.0 / 60.0);
  CHECK(calm.stats().unconverged == 0);
  CHECK(calm.stats().density_iterations >= 2);
}

}  // namespace meniscus::sim
