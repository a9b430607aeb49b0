#pragma once
// The compute step for Eq. 1 with the curvature term alone: φ_t = α κ |∇φ|, κ = ∇·(∇φ/|∇φ|)
// (the sum of the principal curvatures, so a sphere shrinks as r² = r0² − 4αt). Central
// differences on a 6^3 block gathered from each tile and its 26 neighbours (a missing neighbour
// reads ±γ with the sign of the nearest voxel of the tile), forward Euler, values clamped to ±γ, activity flags
// refreshed — the paper's compute kernel, run over chunks of the active list on CPU threads.
#include <vector>

#include "sim/levelset/sorted_tile_list.h"

namespace meniscus::sim::levelset {

class CurvatureFlow {
 public:
  explicit CurvatureFlow(float alpha) : alpha_(alpha) {}

  // The largest stable step for explicit mean-curvature flow on a unit grid: 1 / (6α)... times
  // a safety factor.
  float max_time_step() const;
  // One step of length dt (dt <= max_time_step()).
  void step(SortedTileList& list, float dt);

 private:
  float alpha_;
  std::vector<float> next_;  // per active tile, 64 new values
};

// Gathers a tile and a one-voxel border into block[6][6][6] (index (z * 6 + y) * 6 + x, the
// tile at 1..4). `neighbours[d]` is the id of the neighbour in direction d, or UINT32_MAX.
void gather_block(const SortedTileList& list, uint32_t id, const uint32_t neighbours[26], float block[216]);

// Ids of the 26 neighbours of active tile `index` (UINT32_MAX where none).
void find_neighbours(const SortedTileList& list, size_t index, uint32_t neighbours[26]);

}  // namespace meniscus::sim::levelset
