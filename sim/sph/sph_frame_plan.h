#pragma once
// How both SPH backends cut a frame of `dt` seconds into substeps, and how many iterations each
// substep's solves may run: decided once, before the frame, from what an earlier frame measured.
//
// Why before the frame and not substep by substep, as a CFL loop would: the CUDA backend keeps
// its state on the device, and reading the max speed (and each solve's error) back before every
// substep made the host wait for the GPU several times a substep. Instead each frame ends with
// a small record (max speed, iterations, count, statistics) that the CUDA backend copies to
// page-locked memory asynchronously; the frame kPlanLag frames later is planned from it. With a
// lag of two, a renderer with two frames in flight has already waited for that frame's fence
// (whose submission waited for the stage's timeline, after the record), so the record is there
// and step() reads it without waiting; only a caller running further ahead of the device (a
// tight headless loop, a benchmark) waits for it. The price is a speed bound one more frame
// stale, which the free-fall term below and the CFL number's margin cover. The CPU backend plans
// the same way, so the two stay comparable: it is the reference for the scheme, not only for the
// arithmetic.
//
// Speed: the recorded max speed plus |g| per second of simulated time since it was measured
// (free fall, the way fluid mostly speeds up: a waterfall, a collapsing column), and each
// substep's CFL step is taken for that bound. Pressure can push a few particles faster than
// gravity for a frame (a splash); the CFL number leaves room, and the next plan sees the speed.
//
// Iterations: the CUDA backend enqueues each solve's iterations before the device knows how many
// it needs (an iteration after convergence returns at once), so a solve may not run longer than
// the frame's budget: 1.5 x the most iterations any solve of the recorded frame needed, plus 3.
// A solve then stops short of its tolerance only when it needs far more than the frame before
// did; it is counted (SphStats::unconverged) and the next budgets grow with it.
#include <string>
#include <string_view>
#include <vector>

#include "sim/sph/sph_kernel.h"
#include "sim/sph/sph_params.h"

namespace meniscus::sim::sph {

constexpr int kPlanLag = 2;
static_assert(kPlanLag >= 1, "a frame cannot be planned from its own end");

// What a plan needs from a finished frame.
struct FrameOutcome {
  double time = 0.0;       // simulated time at the frame's end
  float max_speed = 0.0f;  // there
  // The most iterations any substep's solve needed; < 0 when no solve ran (no particles, no
  // substep, or the reset state).
  int density_iterations = -1;
  int divergence_iterations = -1;
};

struct FramePlan {
  std::vector<float> substeps;  // seconds each, in order
  int density_budget = 0;       // most iterations each solve may run
  int divergence_budget = 0;
};

// The reset state as an outcome: time 0, the fastest initial velocity, no iterations yet.
FrameOutcome initial_outcome(const std::vector<Vec3>& velocity);

// "sph (cpu) at t = 0.250000 s: ", the start of every SimulationError a backend throws.
std::string where(std::string_view backend, double time);

// The next step: fixed_dt when not adaptive; else the CFL step dt <= cfl * diameter / speed, at
// most max_dt, shortened to end exactly at `remaining`. A result below min_dt means the
// simulation is blowing up.
float choose_step(const SphParams& params, float speed, double remaining);

class FramePlanner {
 public:
  // Plans the frame of `dt` seconds that starts at `now` from `recorded`, the outcome of the frame
  // kPlanLag frames back (the initial outcome for the first kPlanLag frames). Not adaptive: whole
  // fixed steps, the remainder carried in `pending`. Throws SimulationError (after where(backend,
  // now)) when the CFL step for the speed bound falls below min_dt: the simulation is blowing up.
  FramePlan plan(const SphParams& params, double dt, double now, double& pending, const FrameOutcome& recorded,
                 std::string_view backend);

  // Forgets the iterations seen (after a reset): budgets start from max_iterations again.
  void reset() { *this = FramePlanner(); }

 private:
  // The most iterations a solve of the latest frame that ran any needed; < 0: none seen yet.
  int density_seen_ = -1;
  int divergence_seen_ = -1;
};

// Iterations a solve may run given the most one needed lately (< 0: unknown, max_iterations).
int iteration_budget(const SphParams& params, int most_needed);

}  // namespace meniscus::sim::sph
