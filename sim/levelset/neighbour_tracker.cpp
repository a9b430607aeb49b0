#include "sim/levelset/neighbour_tracker.h"

#include <algorithm>

namespace meniscus::sim::levelset {

NeighbourTracker::NeighbourTracker(const std::vector<TileEntry>& list, int direction_sign)
    : list_(list), sign_(direction_sign) {}

void NeighbourTracker::start(uint32_t first_key) {
  const TileCoord c = coord_of(first_key);
  const auto& offsets = neighbour_offsets();
  for (int d = 0; d < 26; ++d) {
    // Translation keeps lexicographic order, so later tiles' neighbours come later in the list.
    // A neighbour off the key range says nothing about later ones: start those at the front.
    const TileCoord n{c.x + sign_ * offsets[d].x, c.y + sign_ * offsets[d].y, c.z + sign_ * offsets[d].z};
    const uint32_t target = representable(n) ? key_of(n) : 0;
    pointer_[d] = size_t(std::lower_bound(list_.begin(), list_.end(), target,
                                          [](const TileEntry& e, uint32_t k) { return e.key < k; }) -
                         list_.begin());
  }
}

void NeighbourTracker::neighbours(uint32_t key, std::array<size_t, 26>& positions) {
  const TileCoord c = coord_of(key);
  const auto& offsets = neighbour_offsets();
  for (int d = 0; d < 26; ++d) {
    positions[d] = SIZE_MAX;
    const TileCoord n{c.x + sign_ * offsets[d].x, c.y + sign_ * offsets[d].y, c.z + sign_ * offsets[d].z};
    if (!representable(n)) continue;
    const uint32_t target = key_of(n);
    size_t& p = pointer_[d];
    while (p < list_.size() && list_[p].key < target) ++p;
    if (p < list_.size() && list_[p].key == target) positions[d] = p;
  }
}

}  // namespace meniscus::sim::levelset
