#pragma once
// Algorithm 1's neighbour pointers on the CPU. Walking the sorted list in key order, the key of
// the neighbour in a fixed direction only grows, so each of the 26 pointers moves forward
// through the list and one binary search per pointer at the start of a chunk is all the
// searching there is: neighbour lookup is linear in the list, not O(n log n).
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

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

// Calls visit(list position, neighbour ids) for every active tile, in chunks of `grain` tiles
// on TBB threads, each chunk walking its tiles in key order with the pointers above;
// neighbour_ids[d] is the tile in direction d (neighbour_offsets order) or UINT32_MAX. `visit`
// may run concurrently for different tiles.
template <class Visit>
void for_each_tile_with_neighbours(const std::vector<TileEntry>& active, size_t grain, const Visit& visit) {
  if (active.empty()) return;
  tbb::parallel_for(tbb::blocked_range<size_t>(0, active.size(), grain), [&](const tbb::blocked_range<size_t>& chunk) {
    std::array<size_t, 26> positions;
    uint32_t neighbour_ids[26];
    NeighbourTracker tracker(active, +1);
    tracker.start(active[chunk.begin()].key);
    for (size_t i = chunk.begin(); i != chunk.end(); ++i) {
      tracker.neighbours(active[i].key, positions);
      for (int d = 0; d < 26; ++d) neighbour_ids[d] = positions[d] == SIZE_MAX ? UINT32_MAX : active[positions[d]].id;
      visit(i, neighbour_ids);
    }
  });
}

}  // namespace meniscus::sim::levelset
