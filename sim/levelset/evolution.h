#pragma once
// The compute step of Eq. 1 (Jalba et al. 2013, §3.4) on the sorted tile list:
//   φ_t = −F(x)|∇φ| − U(x, t)·∇φ + α κ|∇φ|  [+ S(φ)(1 − |∇φ|), the rescaling-speed term]
// The hyperbolic terms are upwinded (first order, or HJ-WENO5), the curvature term takes
// central differences, time is forward Euler or TVD-RK3 with U evaluated at each stage's time;
// values are clamped to ±γ, dt follows the CFL condition, an optional reinitialisation PDE
// runs after every reinit.every-th step, and tile management (activity flags, creation,
// removal, growth) ends it. All lengths are in voxels; velocities and speeds in voxels per unit time.
#include <functional>
#include <limits>

#include "sim/levelset/reinitialise.h"
#include "sim/levelset/sorted_tile_list.h"
#include "sim/levelset/threshold_speed.h"
#include "sim/levelset/tvd_runge_kutta.h"
#include "sim/levelset/upwind.h"
#include "sim/levelset/velocity_field.h"

namespace meniscus::sim::levelset {

struct EvolutionParams {
  Scheme scheme = Scheme::kWeno5;
  SpeedField normal_speed;  // F(x), positive moves the surface outwards; empty: F = 0
  // A segmentation's data term (threshold_speed.h) as data: when its volume is set, F is this
  // field, evaluated inline (it is most of a segmentation step) as the CUDA backend does.
  ThresholdSpeed threshold;
  // F read at each voxel's nearest point on the front (closest_point.h) rather than at the voxel.
  bool extend_normal_speed = false;
  // The CFL speeds of the F term and of the rescaling term from their effective velocities
  // (upwind.h) rather than the worst cases √3|F| and √3β: a field varying along the band then
  // limits the step only where it moves φ, and the rescaling term, whose speed β S(φ) vanishes
  // on the front, only by what it moves where it acts.
  bool effective_normal_cfl = false;
  VelocityField velocity;   // U(x, t); empty: U = 0
  float alpha = 0.0f;       // curvature weight α
  // The paper's extra term sgn(φ)(1 − |∇φ|) (smoothed sign), keeping φ near a distance
  // function without a separate reinitialisation.
  bool rescaling_speed = false;
  // Its weight β: β S(φ)(1 − |∇φ|). 1 where the other speeds are of order one voxel per unit
  // time; a field in other units (a segmentation's intensities) scales it to match, or the
  // front outruns it and φ steepens where the front comes to rest.
  float rescaling_weight = 1.0f;
  // Courant number ν: dt = ν / max over the band of (Σ_a |U_a| + √3 |F| + 6α [+ √3 β]), or of
  // a segmentation's data-term stiffness |∂F/∂n| where that is larger (threshold_speed.h).
  float cfl = 0.5f;
  // Tiles this returns false for keep their values (their rate is zero): a surface changed in a
  // few places only (reconstruct/free_tiles.h). Empty: every tile evolves. CPU only.
  std::function<bool(TileKey)> evolves;
  ReinitParams reinit;   // iterations > 0: the reinitialisation PDE after every reinit.every steps
};

class LevelSetEvolution {
 public:
  explicit LevelSetEvolution(EvolutionParams params);
  // New terms for the steps to come (a brush stroke starting): the step count that
  // reinit.every follows carries on.
  void set_params(EvolutionParams params);

  // Advances from time t by one CFL-limited step no longer than max_dt, then reinitialises
  // (when asked) and manages the tiles. Returns the step taken.
  float step(SortedTileList& list, float t, float max_dt = std::numeric_limits<float>::infinity());

  const EvolutionParams& params() const { return params_; }
  const TileStatus& last_status() const { return status_; }
  // The largest |F| over the front (voxels with |φ| <= ½) at the last step's first stage, as
  // F was evaluated there (at the nearest front point when extended): the speed ITK's time
  // step follows (segmentation.h).
  float front_speed() const { return front_speed_; }
  // The largest |α κ|∇φ|| there: ITK's time step also follows the curvature term.
  float front_curvature_speed() const { return front_curvature_; }

 private:
  float rate(const SortedTileList& list, float t, std::vector<float>& out);

  EvolutionParams params_;
  TvdRungeKutta integrator_;
  Reinitialiser reinitialiser_;
  uint64_t steps_ = 0;  // steps taken (empty lists too, as the GPU-STL counts), for reinit.every
  std::vector<float> tile_speed_;  // per active tile, the CFL speed it met
  std::vector<float> tile_front_speed_;  // per active tile, the largest |F| on its front voxels
  std::vector<float> tile_front_curvature_;  // and the largest |α κ|∇φ||
  float front_speed_ = 0.0f, front_curvature_ = 0.0f;
  bool first_stage_ = false;
  TileStatus status_;
};

}  // namespace meniscus::sim::levelset
