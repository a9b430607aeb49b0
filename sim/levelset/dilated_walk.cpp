#include "sim/levelset/dilated_walk.h"

#include <algorithm>
#include <tuple>

namespace meniscus::sim::levelset {
namespace {

bool lexicographically_less(const TileCoord& a, const TileCoord& b) {
  return std::tie(a.z, a.y, a.x) < std::tie(b.z, b.y, b.x);
}

}  // namespace

DilatedWalk::DilatedWalk(const std::vector<TileEntry>& active, TileKey from, bool from_start, TileKey to, bool to_end)
    : active_(active), to_(to), to_end_(to_end) {
  const TileCoord lower = coord_of(from);
  const auto& offsets = neighbour_offsets();
  for (int h = 0; h < 27; ++h) {
    const TileCoord o = h == kSelf ? TileCoord{0, 0, 0} : offsets[h];
    // The first tile whose shifted coordinate reaches `from`. Compared as coordinates, not
    // keys: a shift may leave the key range, and coordinates keep their order regardless.
    head_[h] = from_start ? 0
                          : size_t(std::partition_point(active_.begin(), active_.end(),
                                                        [&](const TileEntry& e) {
                                                          const TileCoord c = coord_of(e.key);
                                                          return lexicographically_less({c.x + o.x, c.y + o.y, c.z + o.z}, lower);
                                                        }) -
                                   active_.begin());
    settle(h);
  }
}

void DilatedWalk::settle(int head) {
  const TileCoord o = head == kSelf ? TileCoord{0, 0, 0} : neighbour_offsets()[head];
  for (size_t& p = head_[head]; p < active_.size(); ++p) {
    const TileCoord c = coord_of(active_[p].key);
    const TileCoord shifted{c.x + o.x, c.y + o.y, c.z + o.z};
    if (representable(shifted)) {
      key_[head] = key_of(shifted);
      return;
    }
  }
}

bool DilatedWalk::next(DilatedCandidate& out) {
  // The smallest shifted key over the heads (the paper's REDUCE32(min, cur)).
  bool any = false;
  TileKey smallest = 0;
  for (int h = 0; h < 27; ++h)
    if (head_[h] < active_.size() && (!any || key_[h] < smallest)) smallest = key_[h], any = true;
  if (!any || (!to_end_ && smallest >= to_)) return false;
  // Every head at that key matched (REDUCE32(or, my_match)) and moves on.
  out.key = smallest;
  out.match = 0;
  for (int h = 0; h < 27; ++h) {
    if (head_[h] >= active_.size() || key_[h] != smallest) continue;
    out.match |= 1u << h;
    out.source[h] = head_[h]++;
    settle(h);
  }
  return true;
}

}  // namespace meniscus::sim::levelset
