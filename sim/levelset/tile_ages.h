#pragma once
// The convergence test of §4.1: every active tile has an age, reset when the tile is created
// and growing with each tile-management step it survives. When every tile is older than a
// threshold the band has stopped moving across tiles and the level is done.
//
// The paper counts steps and stops at 5; its convected surface moves a unit step (one voxel)
// per iteration, so 5 steps are 5 voxels of travel, more than a tile's side: a surface still
// moving would have made or dropped a tile. Our steps are CFL-limited (a fraction of a voxel),
// so a tile's age here is the evolution time it has survived, which at unit speed is the same
// voxels of travel, and the threshold is in those units.
#include <cstdint>
#include <vector>

#include "sim/levelset/sorted_tile_list.h"

namespace meniscus::sim::levelset {

class TileAges {
 public:
  // Call once for the initial list (t = its time) and after every management step.
  void update(const SortedTileList& list, double t);
  // Whether every active tile is older than `threshold` time units (false for an empty band).
  bool all_older_than(double threshold) const { return tiles_ > 0 && youngest_ > threshold; }
  // Whether at most `fraction` of the active tiles are `threshold` time units old or younger
  // (false for an empty band; fraction 0 is all_older_than).
  bool settled(double threshold, double fraction) const;
  double youngest() const { return youngest_; }

 private:
  // Per tile id: its key, its birth time and the update at which it was last seen, so that an
  // id freed and handed out again (the free stack is LIFO) starts over even at the same key.
  std::vector<TileKey> key_;
  std::vector<uint32_t> seen_;
  std::vector<double> born_;
  std::vector<double> ages_;  // of the active tiles at the last update
  uint32_t update_ = 0;
  double youngest_ = 0;
  size_t tiles_ = 0;
};

}  // namespace meniscus::sim::levelset
