#pragma once
// What the SPH stage reports about its last frame (UI, benchmark, tests).
#include <cstdint>

namespace meniscus::sim {

struct SphStats {
  int substeps = 0;               // in the last step() call
  float last_dt = 0.0f;           // seconds
  int density_iterations = 0;     // of the last substep's constant-density solve
  int divergence_iterations = 0;  // of the last substep's divergence-free solve
  float density_error = 0.0f;     // mean relative compression left by that solve
  uint64_t wall_contacts = 0;     // particle-steps held inside the domain's faces, since the start
  uint64_t emitted = 0;           // by the inflow emitters, since the start
  uint64_t removed = 0;           // by sinks, since the start
  uint64_t dropped = 0;           // emitter particles over the capacity, since the start
  uint64_t blocked = 0;           // emitter particles not placed: fluid still in the mouth
  uint64_t unconverged = 0;       // solves that stopped above their tolerance, since the start
                                  // (at the frame's iteration budget or max_iterations)
};

}  // namespace meniscus::sim
