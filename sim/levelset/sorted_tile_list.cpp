#include "sim/levelset/sorted_tile_list.h"

#include "sim/levelset/neighbour_tracker.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>

namespace meniscus::sim::levelset {
namespace {

// Whether voxel (x, y, z) of a tile lies on the face/edge/corner layer facing direction d.
bool faces(const TileCoord& d, int x, int y, int z) {
  auto on = [](int offset, int v) { return offset == 0 || (offset < 0 ? v == 0 : v == kTileSide - 1); };
  return on(d.x, x) && on(d.y, y) && on(d.z, z);
}

}  // namespace

SortedTileList::SortedTileList(float gamma, uint32_t initial_capacity) : gamma_(gamma) {
  grow(std::max<uint32_t>(initial_capacity, 1));
}

void SortedTileList::grow(uint32_t at_least) {
  const uint32_t old = capacity_;
  capacity_ = std::max(at_least, capacity_ * 2);
  values_.resize(size_t(capacity_) * kTileVoxels, gamma_);
  activity_.resize(capacity_, 0);
  border_.resize(capacity_, 0);
  // Push the new slots so the lowest comes off the stack first.
  for (uint32_t id = capacity_; id-- > old;) free_.push_back(id);
}

uint32_t SortedTileList::allocate(TileStatus& status) {
  if (free_.empty()) {
    const uint32_t before = capacity_;
    grow(capacity_ + 1);
    status.grown += capacity_ - before;
  }
  const uint32_t id = free_.back();
  free_.pop_back();
  return id;
}

void SortedTileList::update_flags(uint32_t id) {
  // Per voxel, the directions whose facing layer it belongs to (a corner voxel faces 7).
  static const std::array<uint32_t, kTileVoxels> kFacing = [] {
    std::array<uint32_t, kTileVoxels> masks{};
    const auto& offsets = neighbour_offsets();
    for (int z = 0; z < kTileSide; ++z)
      for (int y = 0; y < kTileSide; ++y)
        for (int x = 0; x < kTileSide; ++x)
          for (int d = 0; d < 26; ++d)
            if (faces(offsets[d], x, y, z)) masks[voxel_index(x, y, z)] |= 1u << d;
    return masks;
  }();
  const float* v = tile(id);
  uint32_t activity = 0, border = 0;
  for (int i = 0; i < kTileVoxels; ++i) {
    if (std::abs(v[i]) < gamma_) activity |= kFacing[i] | kSelfActive;
    if (v[i] < 0) border |= kFacing[i];
  }
  activity_[id] = activity;
  border_[id] = border;
}

std::optional<size_t> SortedTileList::find(uint32_t key) const {
  auto it = std::lower_bound(active_.begin(), active_.end(), key,
                             [](const TileEntry& e, uint32_t k) { return e.key < k; });
  if (it == active_.end() || it->key != key) return std::nullopt;
  return size_t(it - active_.begin());
}

void SortedTileList::insert(const std::vector<uint32_t>& keys, float fill) {
  TileStatus unused;
  std::vector<TileEntry> added;
  added.reserve(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    if (i && keys[i] <= keys[i - 1]) throw std::invalid_argument("SortedTileList::insert: keys not strictly increasing");
    if (find(keys[i])) throw std::invalid_argument("SortedTileList::insert: tile already present");
    const uint32_t id = allocate(unused);
    std::fill(tile(id), tile(id) + kTileVoxels, fill);
    update_flags(id);
    added.push_back({keys[i], id});
  }
  std::vector<TileEntry> merged;
  merged.reserve(active_.size() + added.size());
  std::merge(active_.begin(), active_.end(), added.begin(), added.end(), std::back_inserter(merged),
             [](const TileEntry& a, const TileEntry& b) { return a.key < b.key; });
  active_ = std::move(merged);
}

TileStatus SortedTileList::manage() {
  TileStatus status;
  const auto& offsets = neighbour_offsets();

  // The dilated list: every active tile and its 26 neighbours, in key order. Shifting the
  // whole sorted list by one offset keeps it sorted, so 27 sorted runs are merged, not sorted.
  std::vector<uint32_t> dilated;
  dilated.reserve(active_.size() * 4);
  {
    std::vector<uint32_t> run;
    std::vector<uint32_t> merged;
    for (const TileEntry& e : active_) dilated.push_back(e.key);
    for (const TileCoord& d : offsets) {
      run.clear();
      for (const TileEntry& e : active_) {
        const TileCoord c = coord_of(e.key);
        const TileCoord n{c.x + d.x, c.y + d.y, c.z + d.z};
        if (representable(n)) run.push_back(key_of(n));
      }
      merged.clear();
      std::set_union(dilated.begin(), dilated.end(), run.begin(), run.end(), std::back_inserter(merged));
      dilated.swap(merged);
    }
  }

  // One ordered pass: keep, remove or create each candidate (Algorithm 2).
  std::vector<TileEntry> next;
  next.reserve(dilated.size());
  std::vector<uint32_t> freed;
  // The candidates come in key order: the list position of each and of its 26 neighbours only
  // move forward (Algorithm 1's pointers), so no search per candidate.
  NeighbourTracker requesters(active_, -1);  // neighbour d of a candidate sits at c - offset[d]
  if (!dilated.empty()) requesters.start(dilated.front());
  std::array<size_t, 26> positions;
  size_t cursor = 0;
  for (uint32_t key : dilated) {
    while (cursor < active_.size() && active_[cursor].key < key) ++cursor;
    const std::optional<size_t> here =
        cursor < active_.size() && active_[cursor].key == key ? std::optional<size_t>(cursor) : std::nullopt;
    // Which neighbours ask for this tile: those whose activity bit points at it.
    requesters.neighbours(key, positions);
    bool requested = false;
    for (int d = 0; d < 26 && !requested; ++d)
      requested = positions[d] != SIZE_MAX && (activity_[active_[positions[d]].id] & (1u << d));
    const TileCoord c = coord_of(key);
    if (here) {
      const uint32_t id = active_[*here].id;
      if (requested || (activity_[id] & kSelfActive)) {
        next.push_back({key, id});
        ++status.kept;
      } else {
        freed.push_back(id);
        ++status.removed;
      }
    } else if (requested) {
      const uint32_t id = allocate(status);
      fill_new_tile(id, c);
      update_flags(id);
      next.push_back({key, id});
      ++status.added;
    }
  }
  // Freed slots go back only now, so a slot freed and reused in one pass cannot alias.
  for (uint32_t id : freed) {
    activity_[id] = border_[id] = 0;
    free_.push_back(id);
  }
  active_ = std::move(next);
  return status;
}

void SortedTileList::fill_new_tile(uint32_t id, const TileCoord& c) {
  // Beyond the band the value is ±γ; the sign comes from the nearest voxel of any existing
  // neighbour (a single requesting tile is not enough: a corner neighbour's one voxel says
  // little about a whole tile, and would invent an interface).
  const auto& offsets = neighbour_offsets();
  uint32_t neighbour_ids[26];
  for (int d = 0; d < 26; ++d) {
    const TileCoord n{c.x + offsets[d].x, c.y + offsets[d].y, c.z + offsets[d].z};
    const std::optional<size_t> at = representable(n) ? find(key_of(n)) : std::nullopt;
    neighbour_ids[d] = at ? active_[*at].id : UINT32_MAX;
  }
  float* to = tile(id);
  for (int z = 0; z < kTileSide; ++z)
    for (int y = 0; y < kTileSide; ++y)
      for (int x = 0; x < kTileSide; ++x) {
        int best_distance = INT32_MAX;
        float sign = 1.0f;
        for (int d = 0; d < 26; ++d) {
          if (neighbour_ids[d] == UINT32_MAX) continue;
          // This voxel in the neighbour's coordinates, and the neighbour's voxel nearest to it.
          const int lx = x - offsets[d].x * kTileSide, ly = y - offsets[d].y * kTileSide, lz = z - offsets[d].z * kTileSide;
          const int nx = std::clamp(lx, 0, kTileSide - 1), ny = std::clamp(ly, 0, kTileSide - 1),
                    nz = std::clamp(lz, 0, kTileSide - 1);
          const int distance = (lx - nx) * (lx - nx) + (ly - ny) * (ly - ny) + (lz - nz) * (lz - nz);
          if (distance < best_distance) {
            best_distance = distance;
            sign = tile(neighbour_ids[d])[voxel_index(nx, ny, nz)] < 0 ? -1.0f : 1.0f;
          }
        }
        to[voxel_index(x, y, z)] = sign * gamma_;
      }
}

std::string SortedTileList::check_invariants() const {
  std::ostringstream problems;
  std::vector<int> owner(capacity_, 0);
  for (size_t i = 0; i < active_.size(); ++i) {
    if (i && active_[i].key <= active_[i - 1].key) problems << "keys not strictly increasing at " << i << "; ";
    if (active_[i].id >= capacity_) problems << "id " << active_[i].id << " outside the pool; ";
    else ++owner[active_[i].id];
  }
  for (uint32_t id : free_) {
    if (id >= capacity_) problems << "free id " << id << " outside the pool; ";
    else ++owner[id];
  }
  for (uint32_t id = 0; id < capacity_; ++id)
    if (owner[id] != 1) problems << "slot " << id << " is " << (owner[id] ? "listed twice" : "lost") << "; ";
  return problems.str();
}

}  // namespace meniscus::sim::levelset
