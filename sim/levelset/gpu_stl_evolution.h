#pragma once
// The compute step of Eq. 1 on a GpuSortedTileList (Jalba et al. 2013 §3.3.4), the CUDA twin
// of LevelSetEvolution: units of 64 threads walk chunks of the active list with Algorithm 1's
// neighbour pointers, gather each tile with a 3-voxel halo (WENO5's reach) into shared memory,
// and evaluate the CPU's arithmetic per voxel (weno5.h, upwind.h, curvature.h); forward Euler
// or TVD-RK3 with U at each stage's time, values clamped to ±γ, the CFL speed by warp
// reductions, activity and border flags by warp reductions; then the reinitialisation PDE after
// every reinit.every-th step the list takes (counted on the device), then the tile management.
//
// Built with MENISCUS_CUDA (gpu_stl_evolution_cuda.cu), else gpu_stl_absent.cpp.
#include <limits>

#include "sim/levelset/gpu_stl_list.h"
#include "sim/levelset/gpu_stl_params.h"

namespace meniscus::sim::levelset {

class GpuLevelSetEvolution {
 public:
  // Throws std::invalid_argument as LevelSetEvolution does (cfl, alpha), and for an Enright
  // field without a resolution.
  explicit GpuLevelSetEvolution(GpuEvolutionParams params);

  // Advances from time t by one CFL-limited step no longer than max_dt, then manages the
  // tiles. Returns the step taken (the same float the CPU takes from the same state). dt is
  // chosen on the device and read back with the management's status: one host wait per step.
  // When nothing moves and max_dt is infinite it throws std::invalid_argument as the CPU does,
  // after the management has run on the unchanged values.
  float step(GpuSortedTileList& list, float t, float max_dt = std::numeric_limits<float>::infinity());

  // The same step queued with no wait, from the list's own clock (GpuStlCounters::time, which
  // it advances by the dt chosen on the device); the step and its management leave a frozen
  // list as it is (gpu_stl_list.h). A refused step (nothing moves, max_dt infinite) leaves the
  // clock and the values as they were and shows as an infinite counters' dt.
  void queue_step(GpuSortedTileList& list, float max_dt = std::numeric_limits<float>::infinity());

  const GpuEvolutionParams& params() const { return params_; }
  const TileStatus& last_status() const { return last_.status; }
  // The counters step() read back (its management's status, the front's change).
  const GpuStlCounters& last_counters() const { return last_; }

 private:
  void queue(GpuSortedTileList& list, float t, bool device_time, float max_dt);
  void queue_reinitialisation(GpuStlStorage& storage, uint32_t units, float snap);

  GpuEvolutionParams params_;
  GpuStlCounters last_;
};

}  // namespace meniscus::sim::levelset
