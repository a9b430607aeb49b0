// SortedTileList::manage(): the tile-management step in the paper's passes (Jalba et al. 2013,
// §3.3.5, Fig. 5), run over chunks of the list on TBB threads:
//   count_tiles   per chunk, walk the dilated list (Algorithm 2), count the tiles to create,
//                 remove and keep, and record each decision;
//   prefix_sum    the counts become each chunk's offsets into the new active list, the free
//                 stack (creations) and the list of freed ids (removals);
//   stat_cpu      the totals make the 16-byte status record; the pool grows here, once, if the
//                 free stack holds fewer ids than the creations need;
//   get_index     each chunk's creations take ids from the top of the free stack at its offset;
//   update_tiles  per chunk, the recorded decisions write the new list in place, initialise new
//                 tiles and collect freed ids.
// The GPU walks twice, once to count and once to write, as it has no room to keep what the first
// walk found; on the CPU the walk is the costly part and its decisions are small, so they are
// kept and replayed.
// The new list comes out sorted with no sort, and the ids are those of one sequential pass (the
// k-th creation in key order pops the k-th id off the stack; freed ids are pushed afterwards in
// key order), so the result does not depend on the number of threads or chunks.
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <vector>

#include "sim/levelset/dilated_walk.h"
#include "sim/levelset/sorted_tile_list.h"

namespace meniscus::sim::levelset {
namespace {

enum class Fate { kKeep, kRemove, kCreate, kNone };

// What becomes of a dilated-list candidate: a tile stays while it holds a value inside the band
// or a neighbour's activity bit asks for it; a missing tile is created when asked for.
Fate fate_of(const DilatedCandidate& c, const std::vector<TileEntry>& active, const std::vector<uint32_t>& activity) {
  bool requested = false;
  for (int d = 0; d < 26 && !requested; ++d)
    requested = (c.match & (1u << d)) && (activity[active[c.source[d]].id] & (1u << d));
  if (c.match & kSelfActive) {
    const uint32_t id = active[c.source[26]].id;
    return requested || (activity[id] & kSelfActive) ? Fate::kKeep : Fate::kRemove;
  }
  return requested ? Fate::kCreate : Fate::kNone;
}

// What one chunk's walk decided, in key order: each kept or removed tile's id, and each
// creation's neighbours in the old list (by direction, UINT32_MAX where none), one entry per
// creation, so their count is the chunk's creations.
struct ChunkDecisions {
  struct Decision {
    TileKey key;
    uint32_t id;  // kKeep, kRemove: the tile's; kCreate: its position in `neighbours`
    Fate fate;
  };
  std::vector<Decision> decisions;
  std::vector<std::array<uint32_t, 26>> neighbours;
  uint32_t removed = 0, kept = 0;
  uint32_t created() const { return uint32_t(neighbours.size()); }
};

// Where a chunk's output starts: its first creation's depth below the top of the free stack,
// its first freed id's slot, its first entry's position in the new list.
struct ChunkOffsets {
  uint32_t stack = 0, freed = 0, list = 0;
};

// Chunk u walks the candidates between the keys of list positions bounds[u] and bounds[u + 1].
DilatedWalk walk_chunk(const std::vector<TileEntry>& active, const std::vector<size_t>& bounds, size_t u) {
  const bool first = u == 0, last = u + 2 == bounds.size();
  return DilatedWalk(active, first ? 0 : active[bounds[u]].key, first, last ? 0 : active[bounds[u + 1]].key, last);
}

}  // namespace

TileStatus SortedTileList::manage() {
  // About 1024 tiles a chunk: enough chunks for every thread, few enough that the two binary
  // searches per head and chunk stay negligible.
  const size_t chunks = std::clamp<size_t>(active_.size() / 1024, 1, 4096);
  std::vector<size_t> bounds(chunks + 1);
  for (size_t u = 0; u <= chunks; ++u) bounds[u] = u * active_.size() / chunks;

  // count_tiles
  std::vector<ChunkDecisions> chunk(chunks);
  tbb::parallel_for(size_t(0), chunks, [&](size_t u) {
    DilatedWalk walk = walk_chunk(active_, bounds, u);
    DilatedCandidate c;
    ChunkDecisions& out = chunk[u];
    while (walk.next(c)) {
      const Fate fate = fate_of(c, active_, activity_);
      switch (fate) {
        case Fate::kKeep:
          ++out.kept;
          break;
        case Fate::kRemove:
          ++out.removed;
          break;
        case Fate::kCreate: {
          // A new tile reads only its neighbours in the old list: head h matched the tile at
          // key - offset[h], direction 25 - h.
          std::array<uint32_t, 26>& ids = out.neighbours.emplace_back();
          for (int h = 0; h < 26; ++h) ids[25 - h] = c.match & (1u << h) ? active_[c.source[h]].id : UINT32_MAX;
          out.decisions.push_back({c.key, uint32_t(out.neighbours.size() - 1), fate});
          continue;
        }
        case Fate::kNone:
          continue;
      }
      out.decisions.push_back({c.key, active_[c.source[26]].id, fate});
    }
  });

  // prefix_sum (exclusive) and stat_cpu
  std::vector<ChunkOffsets> offsets(chunks);
  TileStatus status;
  for (size_t u = 0; u < chunks; ++u) {
    offsets[u] = {status.added, status.removed, status.added + status.kept};
    status.added += chunk[u].created();
    status.removed += chunk[u].removed;
    status.kept += chunk[u].kept;
  }
  if (free_.size() < status.added) {
    // New slots go to the bottom of the stack: the ids already free are handed out first, as
    // one sequential pass growing only when the stack ran dry would.
    // The pool doubles as often as that pass would have doubled it, all at once.
    const uint32_t before = capacity_;
    uint32_t target = capacity_;
    while (free_.size() + (target - before) < status.added) target = std::max(target + 1, target * 2);
    std::vector<uint32_t> old_free;
    old_free.swap(free_);
    grow(target);
    free_.insert(free_.end(), old_free.begin(), old_free.end());
    status.grown = capacity_ - before;
  }

  // get_index and update_tiles
  const size_t stack_top = free_.size();
  std::vector<TileEntry> next(size_t(status.added) + status.kept);
  std::vector<uint32_t> freed(status.removed);
  tbb::parallel_for(size_t(0), chunks, [&](size_t u) {
    uint32_t created = offsets[u].stack, removed = offsets[u].freed, out = offsets[u].list;
    for (const ChunkDecisions::Decision& d : chunk[u].decisions) {
      switch (d.fate) {
        case Fate::kKeep:
          next[out++] = {d.key, d.id};
          break;
        case Fate::kRemove:
          freed[removed++] = d.id;
          break;
        case Fate::kCreate: {
          // It writes only its own slot, and the old list is never written here: chunks cannot race.
          const uint32_t id = free_[stack_top - 1 - created++];
          fill_new_tile(id, chunk[u].neighbours[d.id].data());
          update_flags(id);
          next[out++] = {d.key, id};
          break;
        }
        case Fate::kNone:
          break;
      }
    }
  });

  // The stack loses the ids handed out; freed slots go back only now, so a slot freed and
  // reused in one step cannot alias.
  free_.resize(stack_top - status.added);
  for (uint32_t id : freed) {
    activity_[id] = border_[id] = 0;
    free_.push_back(id);
  }
  active_ = std::move(next);
  return status;
}

}  // namespace meniscus::sim::levelset
