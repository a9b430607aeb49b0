#include "sim/levelset/sorted_tile_list.h"

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

SortedTileList::SortedTileList(float gamma, uint32_t initial_capacity, TilePrecision precision)
    : gamma_(gamma), precision_(precision) {
  grow(std::max<uint32_t>(initial_capacity, 1));
}

void SortedTileList::read(uint32_t id, float out[kTileVoxels]) const {
  const size_t at = size_t(id) * kTileVoxels;
  if (precision_ == TilePrecision::kFloat32) {
    std::copy_n(floats_.data() + at, kTileVoxels, out);
    return;
  }
  for (int v = 0; v < kTileVoxels; ++v) out[v] = decode_fixed_phi(fixed_[at + v], gamma_);
}

void SortedTileList::write(uint32_t id, const float in[kTileVoxels]) {
  const size_t at = size_t(id) * kTileVoxels;
  if (precision_ == TilePrecision::kFloat32) {
    std::copy_n(in, kTileVoxels, floats_.data() + at);
    return;
  }
  for (int v = 0; v < kTileVoxels; ++v) fixed_[at + v] = encode_fixed_phi(in[v], gamma_);
}

SortedTileList SortedTileList::stored_as(TilePrecision precision) const {
  SortedTileList out(gamma_, capacity_, precision);
  out.active_ = active_;
  out.free_ = free_;
  float values[kTileVoxels];
  for (uint32_t id = 0; id < capacity_; ++id) {
    read(id, values);
    out.write(id, values);
  }
  // Rounding may put a value within half a quantum of ±γ onto it: the flags follow the codes.
  for (uint32_t id = 0; id < capacity_; ++id) out.update_flags(id);
  return out;
}

size_t SortedTileList::bytes() const {
  return floats_.capacity() * sizeof(float) + fixed_.capacity() * sizeof(int16_t) +
         (activity_.capacity() + border_.capacity() + free_.capacity()) * sizeof(uint32_t) +
         active_.capacity() * sizeof(TileEntry);
}

void SortedTileList::grow(uint32_t at_least) {
  const uint32_t old = capacity_;
  capacity_ = std::max(at_least, capacity_ * 2);
  if (precision_ == TilePrecision::kFloat32) floats_.resize(size_t(capacity_) * kTileVoxels, gamma_);
  else fixed_.resize(size_t(capacity_) * kTileVoxels, encode_fixed_phi(gamma_, gamma_));
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
  float v[kTileVoxels];
  read(id, v);
  uint32_t activity = 0, border = 0;
  for (int i = 0; i < kTileVoxels; ++i) {
    if (std::abs(v[i]) < gamma_) activity |= kFacing[i] | kSelfActive;
    if (v[i] < 0) border |= kFacing[i];
  }
  activity_[id] = activity;
  border_[id] = border;
}

std::optional<size_t> SortedTileList::find(TileKey key) const {
  auto it = std::lower_bound(active_.begin(), active_.end(), key,
                             [](const TileEntry& e, TileKey k) { return e.key < k; });
  if (it == active_.end() || it->key != key) return std::nullopt;
  return size_t(it - active_.begin());
}

void SortedTileList::insert(const std::vector<TileKey>& keys, float fill) {
  TileStatus unused;
  std::vector<TileEntry> added;
  added.reserve(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    if (i && keys[i] <= keys[i - 1]) throw std::invalid_argument("SortedTileList::insert: keys not strictly increasing");
    if (find(keys[i])) throw std::invalid_argument("SortedTileList::insert: tile already present");
    const uint32_t id = allocate(unused);
    float values[kTileVoxels];
    std::fill_n(values, kTileVoxels, fill);
    write(id, values);
    update_flags(id);
    added.push_back({keys[i], id});
  }
  std::vector<TileEntry> merged;
  merged.reserve(active_.size() + added.size());
  std::merge(active_.begin(), active_.end(), added.begin(), added.end(), std::back_inserter(merged),
             [](const TileEntry& a, const TileEntry& b) { return a.key < b.key; });
  active_ = std::move(merged);
}

namespace {

// For each voxel of a new tile, the 26 neighbour directions ordered by the squared distance from
// the voxel to that neighbour's nearest voxel (ties: lower direction first), with that voxel.
struct NearestNeighbourVoxel {
  uint8_t direction;
  uint8_t voxel;  // index inside the neighbour tile
};
using NeighbourOrder = std::array<std::array<NearestNeighbourVoxel, 26>, kTileVoxels>;

const NeighbourOrder& nearest_neighbour_voxels() {
  static const NeighbourOrder order = [] {
    NeighbourOrder out{};
    const auto& offsets = neighbour_offsets();
    for (int z = 0; z < kTileSide; ++z)
      for (int y = 0; y < kTileSide; ++y)
        for (int x = 0; x < kTileSide; ++x) {
          std::array<std::pair<int, NearestNeighbourVoxel>, 26> ranked;
          for (int d = 0; d < 26; ++d) {
            // This voxel in the neighbour's coordinates, and the neighbour's voxel nearest to it.
            const int lx = x - offsets[d].x * kTileSide, ly = y - offsets[d].y * kTileSide, lz = z - offsets[d].z * kTileSide;
            const int nx = std::clamp(lx, 0, kTileSide - 1), ny = std::clamp(ly, 0, kTileSide - 1),
                      nz = std::clamp(lz, 0, kTileSide - 1);
            const int distance = (lx - nx) * (lx - nx) + (ly - ny) * (ly - ny) + (lz - nz) * (lz - nz);
            ranked[d] = {distance, {uint8_t(d), uint8_t(SortedTileList::voxel_index(nx, ny, nz))}};
          }
          std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
          for (int i = 0; i < 26; ++i) out[SortedTileList::voxel_index(x, y, z)][i] = ranked[i].second;
        }
    return out;
  }();
  return order;
}

}  // namespace

void SortedTileList::fill_new_tile(uint32_t id, const uint32_t neighbour_ids[26]) {
  // Beyond the band the value is ±γ; the sign comes from the nearest voxel of any existing
  // neighbour (a single requesting tile is not enough: a corner neighbour's one voxel says
  // little about a whole tile, and would invent an interface).
  const NeighbourOrder& order = nearest_neighbour_voxels();
  float to[kTileVoxels];
  for (int v = 0; v < kTileVoxels; ++v) {
    float sign = 1.0f;
    for (const NearestNeighbourVoxel& n : order[v])
      if (neighbour_ids[n.direction] != UINT32_MAX) {
        sign = value(neighbour_ids[n.direction], n.voxel) < 0 ? -1.0f : 1.0f;
        break;
      }
    to[v] = sign * gamma_;
  }
  write(id, to);
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
