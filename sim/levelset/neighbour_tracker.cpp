#include "sim/levelset/neighbour_tracker.h"

#include <algorithm>

namespace meniscus::sim::levelset {

NeighbourTracker::NeighbourTracker(const std::vector<TileEntry>& list, int direction_sign)
    : list_(list), sign_(direction_sign) {}

void NeighbourTracker::start(TileKey first_key) {
  const TileCoord c = coord_of(first_key);
  const auto& offsets = neighbour_offsets();
  for (int d = 0; d < 26; ++d) {
    // Translation keeps lexicographic order, so later tiles' neighbours come later in the list.
    // A neighbour off the key range says nothing about later ones: start those at the front.
    const TileCoord n{c.x + sign_ * offsets[d].x, c.y + sign_ * offsets[d].y, c.z + sign_ * offsets[d].z};
    const TileKey target = representable(n) ? key_of(n) : 0;
    pointer_[d] = size_t(std::lower_bound(list_.begin(), list_.end(), target,
                                          [](const TileEntry& e, TileKey k) { return e.key < k; }) -
                         list_.begin());
  }
}

void NeighbourTracker::neighbours(TileKey key, std::array<size_t, 26>& positions) {
  const TileCoord c = coord_of(key);
  const auto& offsets = neighbour_offsets();
  for (int d = 0; d < 26; ++d) {
    positions[d] = SIZE_MAX;
    const TileCoord n{c.x + sign_ * offsets[d].x, c.y + sign_ * offsets[d].y, c.z + sign_ * offsets[d].z};
    if (!representable(n)) continue;
    const TileKey target = key_of(n);
    size_t& p = pointer_[d];
    while (p < list_.size() && list_[p].key < target) ++p;
    if (p < list_.size() && list_[p].key == target) positions[d] = p;
  }
}

}  // namespace meniscus::sim::levelset
