#pragma once
// Reinitialisation as a separate PDE (Sussman, Smereka & Osher 1994): a few pseudo-time
// iterations of φ_τ = S(φ0)(1 − |∇φ|) with the smoothed sign S(φ0) = φ0 / sqrt(φ0² + Δx²)
// (Δx = 1 voxel), which pulls |∇φ| back to 1 near the interface while S(φ0) keeps the zero
// set nearly in place. |∇φ| is Godunov's for the sign of S, with the same spatial scheme and
// time integrator as the evolution (WENO5 + TVD-RK3 or first-order + forward Euler). The tile
// set is not changed; values stay clamped to ±γ.
#include <vector>

#include "sim/levelset/sorted_tile_list.h"
#include "sim/levelset/tvd_runge_kutta.h"
#include "sim/levelset/upwind.h"

namespace meniscus::sim::levelset {

struct ReinitParams {
  int iterations = 0;  // 0: no reinitialisation
  Scheme scheme = Scheme::kWeno5;
  float cfl = 0.5f;  // pseudo-time step is cfl / √3 voxels
  // In an evolution: after every k-th step (the paper reinitialises every few). Steps count
  // from the evolution's first (CPU) or the list's upload (GPU-STL): the same step when the
  // evolution starts with the list, as the stages, the command and the benchmark do.
  int every = 1;
};

// Throws std::invalid_argument naming `who` when iterations are asked for with a cfl outside
// (0, 1] or `every` below 1.
void require_valid(const ReinitParams& params, const char* who);

class Reinitialiser {
 public:
  void run(SortedTileList& list, const ReinitParams& params);

 private:
  std::vector<float> phi0_;  // φ at the start, per active voxel
  TvdRungeKutta integrator_;
};

}  // namespace meniscus::sim::levelset
