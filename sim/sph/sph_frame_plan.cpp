#include "sim/sph/sph_frame_plan.h"

#include <algorithm>
#include <cmath>

#include "sim/common/simulation_error.h"

namespace meniscus::sim::sph {

FrameOutcome initial_outcome(const std::vector<Vec3>& velocity) {
  FrameOutcome outcome;
  for (const Vec3& v : velocity) outcome.max_speed = std::max(outcome.max_speed, length(v));
  return outcome;
}

std::string where(std::string_view backend, double time) {
  return std::string(backend) + " at t = " + std::to_string(time) + " s: ";
}

float choose_step(const SphParams& params, float speed, double remaining) {
  if (!params.adaptive) return params.fixed_dt;
  float dt = speed > 0.0f ? params.cfl * params.diameter() / speed : params.max_dt;
  dt = std::min(dt, params.max_dt);
  if (dt < params.min_dt) return dt;  // the caller reports the instability
  // Land on the frame's end without a sliver of a last step.
  if (remaining <= 1.25 * dt) return float(remaining);
  if (remaining < 2.0 * dt) return float(remaining / 2);
  return dt;
}

int iteration_budget(const SphParams& params, int most_needed) {
  if (most_needed < 0) return params.max_iterations;
  return std::min(params.max_iterations, most_needed + most_needed / 2 + 3);
}

FramePlan FramePlanner::plan(const SphParams& params, double dt, double now, double& pending,
                             const FrameOutcome& recorded, std::string_view backend) {
  // A frame without solves (no particles yet, or no whole fixed step) says nothing about the
  // iterations: the last frame that had some still does.
  if (recorded.density_iterations >= 0) density_seen_ = recorded.density_iterations;
  if (recorded.divergence_iterations >= 0) divergence_seen_ = recorded.divergence_iterations;
  FramePlan plan;
  plan.density_budget = iteration_budget(params, density_seen_);
  plan.divergence_budget = iteration_budget(params, divergence_seen_);
  if (!params.adaptive) {
    pending += dt;
    const int steps = int(pending / params.fixed_dt);
    pending -= steps * double(params.fixed_dt);
    plan.substeps.assign(size_t(std::max(steps, 0)), params.fixed_dt);
    return plan;
  }
  const float g = length(Vec3{params.gravity[0], params.gravity[1], params.gravity[2]});
  double start = now;
  for (double remaining = dt; remaining > 1e-9;) {
    const float speed = recorded.max_speed + g * float(std::max(0.0, start - recorded.time));
    const float h = choose_step(params, speed, remaining);
    if (h < params.min_dt)
      throw SimulationError(where(backend, now) + "unstable: particles reach " + std::to_string(speed) +
                            " m/s, which needs a step below min_dt = " + std::to_string(params.min_dt) + " s");
    plan.substeps.push_back(h);
    remaining -= h;
    start += h;
  }
  return plan;
}

}  // namespace meniscus::sim::sph
