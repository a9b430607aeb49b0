#pragma once
// The Sorted Tile List (Jalba, van der Laan, Roerdink 2013, §3.2-3.3): the narrow band of a
// level set as 4^3 tiles of φ values, listed in lexicographic (z, y, x) order of their
// coordinates, each list entry naming the tile's slot in a pool of tile storage. Free slots
// wait on a LIFO stack; when it runs dry the pool grows by reallocation and the status record
// of the management step says so.
//
// Per tile, two sets of 26 direction bits:
//  - activity: the tile's layer of voxels facing direction d holds a value inside (-γ, γ), so
//    the neighbour in direction d is needed next step; bit 26: the tile itself holds one.
//  - border: the facing layer is inside the interface (negative), so a missing neighbour
//    there reads as -γ rather than +γ.
// manage() is the paper's tile-management step in its passes (count, prefix sum, status, index,
// update; tile_management.cpp), each walking the dilated active list (Algorithm 2,
// dilated_walk.h) in chunks on TBB threads: it creates requested tiles, frees unneeded ones and
// keeps the list sorted without ever sorting it.
//
// The pool stores φ as 32-bit floats or, as an option (§6.4), as 16-bit fixed point
// (fixed_point_phi.h). Callers see floats either way: read()/value() decode, write() rounds to
// the storage, so every algorithm runs unchanged on both.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/levelset/fixed_point_phi.h"
#include "sim/levelset/tile_key.h"

namespace meniscus::sim::levelset {

inline constexpr int kTileSide = 4;
inline constexpr int kTileVoxels = kTileSide * kTileSide * kTileSide;
inline constexpr uint32_t kSelfActive = 1u << 26;

// The paper's 16-byte status record for the CPU after tile management.
struct TileStatus {
  uint32_t added = 0;
  uint32_t removed = 0;
  uint32_t kept = 0;
  uint32_t grown = 0;  // pool slots added by reallocation in this step (0: none)
};
static_assert(sizeof(TileStatus) == 16);

enum class TilePrecision : uint8_t { kFloat32, kFixed16 };

// "float32" / "fixed16", as scene files and flags spell them (inline: the scene reader's fuzz
// target parses them without the level-set library).
inline const char* precision_name(TilePrecision precision) {
  return precision == TilePrecision::kFixed16 ? "fixed16" : "float32";
}
inline std::optional<TilePrecision> parse_precision(const std::string& name) {
  if (name == "float32") return TilePrecision::kFloat32;
  if (name == "fixed16") return TilePrecision::kFixed16;
  return std::nullopt;
}

// The pool as a hot loop reads it (SortedTileList::visit_values): value at slot × kTileVoxels +
// voxel, from a pointer held in a local, with no per-voxel branch on the storage.
struct FloatPoolReader {
  const float* values;
  float operator()(size_t i) const { return values[i]; }
};
struct FixedPoolReader {
  const int16_t* codes;
  float gamma;
  float operator()(size_t i) const { return decode_fixed_phi(codes[i], gamma); }
};

struct TileEntry {
  TileKey key;
  uint32_t id;
};

class SortedTileList {
 public:
  explicit SortedTileList(float gamma, uint32_t initial_capacity = 64,
                          TilePrecision precision = TilePrecision::kFloat32);

  float gamma() const { return gamma_; }
  TilePrecision precision() const { return precision_; }
  size_t size() const { return active_.size(); }
  const std::vector<TileEntry>& active() const { return active_; }
  uint32_t capacity() const { return capacity_; }
  const std::vector<uint32_t>& free_stack() const { return free_; }

  // A tile's kTileVoxels values, decoded to floats.
  void read(uint32_t id, float out[kTileVoxels]) const;
  float value(uint32_t id, int voxel) const {
    const size_t at = size_t(id) * kTileVoxels + voxel;
    return precision_ == TilePrecision::kFloat32 ? floats_[at] : decode_fixed_phi(fixed_[at], gamma_);
  }
  // Calls visit(reader) with the reader of this list's storage (FloatPoolReader or
  // FixedPoolReader): loops that gather many voxels branch on the storage once.
  template <class Visit>
  decltype(auto) visit_values(Visit&& visit) const {
    if (precision_ == TilePrecision::kFloat32) return visit(FloatPoolReader{floats_.data()});
    return visit(FixedPoolReader{fixed_.data(), gamma_});
  }
  // Stores a tile's values, rounded to the storage's precision; update_flags() when done.
  void write(uint32_t id, const float in[kTileVoxels]);

  // The same list (entries, ids, free stack) with its values in `precision`.
  SortedTileList stored_as(TilePrecision precision) const;

  // What the structure holds in memory: the tile pool, its two flag words per slot, the active
  // list and the free stack (capacity, as allocated).
  size_t bytes() const;

  static int voxel_index(int x, int y, int z) { return (z * kTileSide + y) * kTileSide + x; }

  uint32_t activity(uint32_t id) const { return activity_[id]; }
  uint32_t border(uint32_t id) const { return border_[id]; }
  // Recomputes a tile's activity and border flags from its values (after they changed).
  void update_flags(uint32_t id);

  // Position in the active list of the tile with `key` (binary search).
  std::optional<size_t> find(TileKey key) const;

  // Adds tiles at `keys` (strictly increasing, none present yet) filled with `fill`, merging
  // them into the list in order. For building a level set; evolution uses manage().
  void insert(const std::vector<TileKey>& keys, float fill);

  TileStatus manage();

  // Empty when the structure is consistent: keys strictly increasing, ids unique and in the
  // pool, free stack and active ids partitioning the pool. Otherwise what is wrong.
  std::string check_invariants() const;

 private:
  friend struct GpuStlTransfer;  // the CUDA backend copies the whole state (gpu_stl_list_cuda.cu)

  uint32_t allocate(TileStatus& status);
  // Fills a new tile with ±γ, the sign of the nearest voxel of its existing neighbours
  // (`neighbour_ids[d]`: the tile in direction d, or UINT32_MAX).
  void fill_new_tile(uint32_t id, const uint32_t neighbour_ids[26]);
  void grow(uint32_t at_least);

  float gamma_;
  TilePrecision precision_;
  uint32_t capacity_ = 0;
  std::vector<TileEntry> active_;
  std::vector<uint32_t> free_;  // top of the stack at the back
  std::vector<float> floats_;     // kFloat32: kTileVoxels per pool slot
  std::vector<int16_t> fixed_;    // kFixed16: the same, as fixed_point_phi.h codes
  std::vector<uint32_t> activity_;
  std::vector<uint32_t> border_;
};

}  // namespace meniscus::sim::levelset
