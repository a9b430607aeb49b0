#include "sim/levelset/tile_ages.h"

#include <algorithm>
#include <limits>

namespace meniscus::sim::levelset {

void TileAges::update(const SortedTileList& list, double t) {
  if (key_.size() < list.capacity()) {
    key_.resize(list.capacity(), 0);  // seen_ 0: never seen, whatever the key
    seen_.resize(list.capacity(), 0);
    born_.resize(list.capacity(), 0.0);
  }
  ++update_;
  double youngest = std::numeric_limits<double>::infinity();
  for (const TileEntry& e : list.active()) {
    const bool survived = key_[e.id] == e.key && seen_[e.id] + 1 == update_;
    if (!survived) born_[e.id] = t;
    key_[e.id] = e.key;
    seen_[e.id] = update_;
    youngest = std::min(youngest, t - born_[e.id]);
  }
  tiles_ = list.size();
  youngest_ = tiles_ ? youngest : 0.0;
}

}  // namespace meniscus::sim::levelset
