#pragma once
// What both SPH backends derive from SphParams before the first step: the kernel and particle
// volume, the grid and its Z-order ranks, the boundary samples, the initial particles; and the
// host-side schedule of the inflow emitters.
#include <cstdint>
#include <string>
#include <vector>

#include "sim/common/particle_stage.h"
#include "sim/common/simulation_error.h"
#include "sim/sph/sph_boundary.h"
#include "sim/sph/sph_grid.h"
#include "sim/sph/sph_ops.h"
#include "sim/sph/sph_params.h"

namespace meniscus::sim::sph {

struct Setup {
  Constants constants;
  GridShape grid;
  std::vector<uint32_t> rank;
  Boundary boundary;
  std::vector<Vec3> position;  // the fills, in input order
  std::vector<Vec3> velocity;
  uint32_t capacity;
};

// Throws InputError (via params.validate()) for bad settings.
Setup prepare(const SphParams& params);

// The volume that gives a particle of a full cubic lattice of spacing `spacing` exactly the rest
// density: the kernel's discrete partition of unity, not the lattice cell, defines it.
float lattice_volume(const Kernel& kernel, float spacing);

// Most neighbours a particle may have: far above the ~33 of a compressed bulk, so reaching it
// means the solver has failed (particles collapsed onto each other).
constexpr uint32_t kMaxNeighbours = 160;

// Releases particles from the inflow emitters as simulated time passes: one disk layer each
// time the last one has travelled a lattice spacing.
class EmitterSchedule {
 public:
  explicit EmitterSchedule(const SphParams& params);
  // Appends the particles released during [time, time + dt).
  void advance(double time, float dt, std::vector<Vec3>& position, std::vector<Vec3>& velocity);
  // Scales every emitter's speed, so its particle rate (the UI's "emitter rate" slider).
  float* rate_control() { return &rate_; }

 private:
  struct Stream {
    SphEmitter emitter;
    std::vector<Vec3> layer;  // offsets of one layer's particles from the centre
    float travelled = 0.0f;   // since the last layer
  };
  std::vector<Stream> streams_;
  float spacing_;
  float rate_ = 1.0f;
};

// The UI's sliders for either backend: particle size (sets the count; resets), viscosity, wall
// friction, surface tension, emitter rate. The pointers stay valid while the stage lives.
std::vector<StageControl> stage_controls(SphParams& params, float scene_radius, EmitterSchedule& emitters);

// Copies the sliders' material settings into the solver's constants (at each step).
void refresh_constants(const SphParams& params, Constants& constants);

// The next step: fixed_dt when not adaptive; else the CFL step dt <= cfl * diameter / max |v|,
// at most max_dt, shortened to end exactly at `remaining`. A result below min_dt means the
// simulation is blowing up.
float choose_step(const SphParams& params, float max_speed, double remaining);

// Runs one frame of `dt` seconds as substeps: CFL-adaptive ones, each sized from the current
// max speed, or whole fixed steps with the remainder carried in `pending`. Both backends step
// through here. Throws SimulationError (after `who`, e.g. "sph (cpu) at t = ...: ") when the
// CFL step falls below min_dt: the simulation is blowing up.
template <class MaxSpeed, class Substep, class Who>
void advance_frame(const SphParams& params, double dt, double& pending, MaxSpeed&& max_speed, Substep&& substep,
                   Who&& who) {
  if (!params.adaptive) {
    pending += dt;
    const int steps = int(pending / params.fixed_dt);
    pending -= steps * double(params.fixed_dt);
    for (int k = 0; k < steps; ++k) substep(params.fixed_dt);
    return;
  }
  for (double remaining = dt; remaining > 1e-9;) {
    const float speed = max_speed();
    const float h = choose_step(params, speed, remaining);
    if (h < params.min_dt)
      throw SimulationError(who() + "unstable: particles reach " + std::to_string(speed) +
                            " m/s, which needs a step below min_dt = " + std::to_string(params.min_dt) + " s");
    substep(h);
    remaining -= h;
  }
}

}  // namespace meniscus::sim::sph
