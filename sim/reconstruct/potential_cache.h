#pragma once
// The P-cache of §4.1: P at every voxel of every active tile, in an array indexed by tile id
// beside the tiles' φ. After each tile-management step only the tiles created since (an id whose
// cached values were computed for another tile key) are evaluated, by Barnes–Hut; a tile that
// stays in the band never pays again.
//
// The evolution's velocity V = ∇P/|∇P| is cached per voxel beside it, either as the walk's exact
// gradient (computed with P, per voxel: nothing else to redo) or, as in the paper, by central
// differences of the cached P. P depends on the position only, so with differences a tile's V
// needs recomputing only when the tile is new or a face neighbour appears (where no neighbour
// tile is in the band the difference is one-sided: |φ| = γ there and the direction matters
// little); a neighbour's removal leaves the differences already taken valid.
#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/levelset/sorted_tile_list.h"
#include "sim/levelset/velocity_field.h"
#include "sim/reconstruct/barnes_hut.h"
#include "sim/reconstruct/reconstruction_frame.h"

namespace meniscus::sim::reconstruct {

struct PotentialCacheStats {
  uint64_t tiles_evaluated = 0;  // tiles whose P was computed (over the cache's life)
  uint64_t nodes_visited = 0;    // octree nodes the walks visited
  double evaluate_ms = 0;        // P and V for new tiles
};

// How V = ∇P/|∇P| is taken from the tree.
enum class GradientScheme {
  kCentral,   // the paper's: central differences of the cached P, one voxel either side
  kAnalytic,  // the gradient of each far node's monopole summed in the same walk as P
};

class PotentialCache {
 public:
  // P for the voxels of `level` (frame gives where they are in the tree). With gap_slowdown
  // k > 0, V is scaled by min(1, k |∇P| / P), |∇P| per finest-grid voxel: full speed near a
  // sample (|∇P| / P = p / r at distance r from a lone one), slow where the pulls of samples on
  // either side cancel, as in a hole of the scan, through which the normalised ∇P would carry
  // the front at full speed into the body.
  PotentialCache(const BarnesHut& potential, const ReconstructionFrame& frame, int level,
                 GradientScheme scheme = GradientScheme::kCentral, float gap_slowdown = 0.0f);

  // Evaluates P for every active tile not cached yet and V for those and their face neighbours
  // (on TBB threads). Call after every management step. Returns the tiles whose P was evaluated.
  size_t refresh(const levelset::SortedTileList& list);

  // ∇P/|∇P| at a voxel of an active tile of `list` (after refresh); zero elsewhere. Safe to call
  // concurrently.
  glm::vec3 velocity(const levelset::SortedTileList& list, glm::ivec3 voxel) const;

  // The evolution's U(x, t): velocity() at the voxel, independent of t. Holds references to
  // this cache and `list`.
  levelset::VelocityField field(const levelset::SortedTileList& list) const;

  float potential_at(uint32_t id, int voxel_index) const { return potential_[size_t(id) * levelset::kTileVoxels + voxel_index]; }
  const PotentialCacheStats& stats() const { return stats_; }

 private:
  void evaluate_potential(const levelset::TileEntry& tile, uint64_t& visited);
  void evaluate_velocity(const levelset::SortedTileList& list, const levelset::TileEntry& tile);
  // The gap slowdown's factor for |∇P| (per finest-grid voxel) and P.
  float gap_speed(double gradient_length, double value) const;

  const BarnesHut& potential_evaluator_;
  ReconstructionFrame frame_;
  int level_;
  GradientScheme scheme_;
  float gap_slowdown_;
  std::vector<float> potential_;      // kTileVoxels per tile id
  std::vector<glm::vec3> velocity_;   // kTileVoxels per tile id
  std::vector<levelset::TileKey> key_;  // the tile key both were computed for, per id (kNoKey: none)
  uint64_t generation_ = 0;           // new at every refresh: invalidates the threads' tile memos
  PotentialCacheStats stats_;
};

}  // namespace meniscus::sim::reconstruct
