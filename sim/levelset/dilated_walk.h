#pragma once
// Algorithm 2 of Jalba et al. (2013): the dilated active list — every active tile and its 26
// neighbours, each once — visited in key order without building or sorting it. Translation
// keeps lexicographic order, so the list shifted by one of the 27 offsets is still sorted; the
// walk keeps one head per offset and visits the smallest shifted key next, exactly the paper's
// min-reduction over the 27 "threads" of a unit. The heads that produced a candidate tell, for
// free, which active tiles neighbour it (the paper's `match` bits), so no search per candidate.
//
// A walk covers the candidates in [from, to) of one chunk; chunks split at keys of the active
// list, so they partition the dilated list and run on threads independently.
#include <array>
#include <cstdint>
#include <vector>

#include "sim/levelset/sorted_tile_list.h"

namespace meniscus::sim::levelset {

struct DilatedCandidate {
  TileKey key;
  // Bit o (o < 26): the active tile at key - offset[o] neighbours the candidate; its activity
  // bit o points at it. bit 26: the candidate itself is active, at list position `self`.
  uint32_t match = 0;
  std::array<size_t, 27> source{};  // list position of each matched tile (valid where matched)
};

class DilatedWalk {
 public:
  // Candidates with key >= from (every candidate when `from_start`) and < to (every remaining
  // one when `to_end`).
  DilatedWalk(const std::vector<TileEntry>& active, TileKey from, bool from_start, TileKey to, bool to_end);

  // The next candidate in key order; false when the range is exhausted.
  bool next(DilatedCandidate& out);

 private:
  static constexpr int kSelf = 26;  // head 26 walks the unshifted list
  // Moves head h to the first tile at or after its position whose shift is a key, and caches
  // that key.
  void settle(int head);

  const std::vector<TileEntry>& active_;
  TileKey to_;
  bool to_end_;
  std::array<size_t, 27> head_{};
  std::array<TileKey, 27> key_{};  // the shifted key at each head (valid while the head is in the list)
};

}  // namespace meniscus::sim::levelset
