#pragma once
// Algorithm 1's neighbour pointers on the CPU. Walking the sorted list in key order, the key of
// the neighbour in a fixed direction only grows, so each of the 26 pointers moves forward
// through the list and one binary search per pointer at the start of a chunk is all the
// searching there is: neighbour lookup is linear in the list, not O(n log n).
#include <array>
#include <cstdint>
#include <vector>

#include "sim/levelset/sorted_tile_list.h"

namespace meniscus::sim::levelset {

class NeighbourTracker {
 public:
  // `direction_sign` +1: neighbour d is at c + offset[d]; -1: at c - offset[d].
  NeighbourTracker(const std::vector<TileEntry>& list, int direction_sign);

  // Positions the pointers for a walk that starts at `first_key`.
  void start(TileKey first_key);
  // List positions of the 26 neighbours of the tile at `key` (SIZE_MAX where none). Keys must
  // be given in increasing order after start().
  void neighbours(TileKey key, std::array<size_t, 26>& positions);

 private:
  const std::vector<TileEntry>& list_;
  int sign_;
  std::array<size_t, 26> pointer_{};
};

}  // namespace meniscus::sim::levelset
