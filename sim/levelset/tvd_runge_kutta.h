#pragma once
// Time integration of φ_t = L(φ) over the active voxels of a sorted tile list: forward Euler
// with the first-order scheme, and Shu & Osher's third-order TVD Runge–Kutta with WENO5,
//   φ1 = φn + dt L(φn, t),  φ2 = ¾ φn + ¼ (φ1 + dt L(φ1, t + dt)),
//   φ3 = ⅓ φn + ⅔ (φ2 + dt L(φ2, t + dt/2)),
// each stage clamped to ±γ and written back into the tiles, so the next stage's stencils
// gather it like any other values. The tile set is fixed during a step; management follows it.
#include <functional>
#include <vector>

#include "sim/levelset/sorted_tile_list.h"
#include "sim/levelset/upwind.h"

namespace meniscus::sim::levelset {

// Fills rate[position * kTileVoxels + voxel] with L(φ) at stage time t for every active tile
// and returns the largest characteristic speed it met (Σ|∂H/∂φ_a| in voxels per unit time,
// plus 6α-like parabolic terms), from which the first stage chooses dt.
using RateFunction = std::function<float(const SortedTileList& list, float t, std::vector<float>& rate)>;

// After a step, |φ| > γ − snap counts as beyond the band (voxels; see the .cpp).
inline constexpr float kDefaultBandSnap = 1e-2f;

class TvdRungeKutta {
 public:
  explicit TvdRungeKutta(float band_snap = kDefaultBandSnap) : snap_(band_snap) {}

  // One step from time t: dt = min(max_dt, cfl / speed) where speed is what the first stage's
  // rate reported (max_dt when it is 0). Refreshes every tile's flags. Returns dt.
  float step(SortedTileList& list, Scheme scheme, float t, float cfl, float max_dt, const RateFunction& rate);

 private:
  float snap_;
  std::vector<float> base_;  // φn per active voxel
  std::vector<float> rate_;
};

}  // namespace meniscus::sim::levelset
