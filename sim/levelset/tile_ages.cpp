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
  ages_.clear();
  for (const TileEntry& e : list.active()) {
    const bool survived = key_[e.id] == e.key && seen_[e.id] + 1 == update_;
    if (!survived) born_[e.id] = t;
    key_[e.id] = e.key;
    seen_[e.id] = update_;
    ages_.push_back(t - born_[e.id]);
    youngest = std::min(youngest, ages_.back());
  }
  tiles_ = list.size();
  youngest_ = tiles_ ? youngest : 0.0;
}

bool TileAges::settled(double threshold, double fraction) const {
  if (tiles_ == 0) return false;
  const auto young = std::count_if(ages_.begin(), ages_.end(), [threshold](double age) { return age <= threshold; });
  return double(young) <= fraction * double(tiles_);
}

}  // namespace meniscus::sim::levelset
