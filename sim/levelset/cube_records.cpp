#include "sim/levelset/cube_records.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <sstream>

#include "engine/core/error.h"
#include "sim/levelset/neighbour_tracker.h"
#include "sim/levelset/tile_key.h"

namespace meniscus::sim::levelset {
namespace {

// Tiles per parallel work item: fixed, so the record order never depends on the scheduler.
constexpr size_t kChunkTiles = 256;

// The block a tile's cells read: its own voxels and one layer of its neighbours' on every side
// (local coordinates -1..4), as quantised codes.
constexpr int kBlockSide = kTileSide + 2;
int block_index(int x, int y, int z) { return ((z + 1) * kBlockSide + (y + 1)) * kBlockSide + (x + 1); }

// Index 0..26 of a tile offset in {-1, 0, 1}^3, ordered as its key: below 13 means a smaller
// key than the centre tile, 13 is the centre.
int offset_slot(glm::ivec3 o) { return (o.z + 1) * 9 + (o.y + 1) * 3 + (o.x + 1); }
// Direction index in neighbour_offsets() order (the centre left out).
int direction_of(glm::ivec3 o) {
  const int slot = offset_slot(o);
  return slot < 13 ? slot : slot - 1;
}

// Neighbour offsets nearest first: the 6 faces, the 12 edges, the 8 corners.
const std::array<glm::ivec3, 26>& offsets_by_distance() {
  static const std::array<glm::ivec3, 26> table = [] {
    std::array<glm::ivec3, 26> out{};
    int n = 0;
    for (int nonzero = 1; nonzero <= 3; ++nonzero)
      for (const TileCoord& o : neighbour_offsets())
        if (std::abs(o.x) + std::abs(o.y) + std::abs(o.z) == nonzero) out[n++] = {o.x, o.y, o.z};
    return out;
  }();
  return table;
}

glm::ivec3 floor_div4(glm::ivec3 v) { return {floor_div(v.x, kTileSide), floor_div(v.y, kTileSide), floor_div(v.z, kTileSide)}; }

// What one tile needs to fill its block and own its cells.
class TileNeighbourhood {
 public:
  TileNeighbourhood(const SortedTileList& list, float iso) : list_(list), iso_(iso) {}

  void reset(TileCoord centre, uint32_t centre_id, const std::array<size_t, 26>& positions) {
    centre_ = {centre.x, centre.y, centre.z};
    ids_.fill(UINT32_MAX);
    ids_[13] = centre_id;
    for (int d = 0; d < 26; ++d)
      if (positions[d] != SIZE_MAX) {
        const TileCoord& o = neighbour_offsets()[d];
        ids_[offset_slot({o.x, o.y, o.z})] = list_.active()[positions[d]].id;
      }
    missing_code_.fill(kUnknown);
  }

  uint32_t id(glm::ivec3 offset) const { return ids_[offset_slot(offset)]; }

  // The code every voxel of the missing tile at `offset` reads (see cube_records.h).
  int8_t missing_code(glm::ivec3 offset) {
    int16_t& code = missing_code_[offset_slot(offset)];
    if (code == kUnknown) code = quantise_corner((missing_tile_inside(offset) ? -list_.gamma() : list_.gamma()) - iso_, list_.gamma());
    return int8_t(code);
  }

 private:
  static constexpr int16_t kUnknown = INT16_MAX;

  // The active tile at centre + offset (any offset), or UINT32_MAX.
  uint32_t find(glm::ivec3 offset) const {
    if (glm::all(glm::lessThanEqual(glm::abs(offset), glm::ivec3(1)))) return id(offset);
    const glm::ivec3 c = centre_ + offset;
    const TileCoord coord{c.x, c.y, c.z};
    if (!representable(coord)) return UINT32_MAX;
    const auto position = list_.find(key_of(coord));
    return position ? list_.active()[*position].id : UINT32_MAX;
  }

  bool missing_tile_inside(glm::ivec3 offset) const {
    for (const glm::ivec3& e : offsets_by_distance()) {
      const uint32_t neighbour = find(offset + e);
      if (neighbour != UINT32_MAX) return (list_.border(neighbour) >> direction_of(-e) & 1u) != 0;
    }
    return false;  // unreachable: the centre tile neighbours every tile its block touches
  }

  const SortedTileList& list_;
  float iso_;
  glm::ivec3 centre_{0};
  std::array<uint32_t, 27> ids_{};
  std::array<int16_t, 27> missing_code_{};
};

void fill_block(const SortedTileList& list, TileNeighbourhood& tiles, float iso, int8_t* block) {
  const float gamma = list.gamma();
  for (int z = -1; z <= kTileSide; ++z)
    for (int y = -1; y <= kTileSide; ++y)
      for (int x = -1; x <= kTileSide; ++x) {
        const glm::ivec3 v(x, y, z), offset = floor_div4(v);
        const uint32_t id = tiles.id(offset);
        int8_t code;
        if (id == UINT32_MAX) {
          code = tiles.missing_code(offset);
        } else {
          const glm::ivec3 local = v - offset * kTileSide;
          code = quantise_corner(list.tile(id)[SortedTileList::voxel_index(local.x, local.y, local.z)] - iso, gamma);
        }
        block[block_index(x, y, z)] = code;
      }
}

// Whether the tile at the block's centre writes the cell with base voxel `base` (local
// coordinates): the active tile of smallest key among those holding its corners does.
bool owns_cell(const TileNeighbourhood& tiles, glm::ivec3 base) {
  if (base.x >= 0 && base.y >= 0 && base.z >= 0) return true;  // smallest possible key: its own
  for (int c = 0; c < 8; ++c) {
    const glm::ivec3 offset = floor_div4(base + glm::ivec3(c & 1, (c >> 1) & 1, (c >> 2) & 1));
    if (offset_slot(offset) < 13 && tiles.id(offset) != UINT32_MAX) return false;
  }
  return true;
}

}  // namespace

glm::uvec3 record_position_of(glm::ivec3 voxel, glm::ivec3 origin, const char* what) {
  const glm::i64vec3 p = glm::i64vec3(voxel) - glm::i64vec3(origin);
  for (int axis = 0; axis < 3; ++axis)
    if (p[axis] < 0 || p[axis] > int64_t(kMaxRecordCoordinate)) {
      std::ostringstream message;
      message << what << ": voxel " << "xyz"[axis] << " = " << voxel[axis] << " lies " << p[axis]
              << " voxels from the record origin; cube records hold 16-bit positions (0.." << kMaxRecordCoordinate
              << "), so a level set drawn from them may span at most " << kMaxRecordCoordinate + 1 << " voxels per axis";
      throw InputError(message.str());
    }
  return glm::uvec3(p);
}

void generate_cube_records(const SortedTileList& list, CubeRecordSet& out, float iso, const char* what) {
  const float gamma = list.gamma();
  if (!(std::abs(iso) < gamma)) {
    std::ostringstream message;
    message << what << ": iso value " << iso << " lies outside the narrow band (-" << gamma << ", " << gamma << ")";
    throw InputError(message.str());
  }
  out.gamma = gamma;
  out.iso = iso;
  out.records.clear();
  const auto& active = list.active();
  if (active.empty()) {
    out.origin = glm::ivec3(0);
    return;
  }
  glm::ivec3 lo(INT_MAX), hi(INT_MIN);
  for (const TileEntry& e : active) {
    const TileCoord c = coord_of(e.key);
    lo = glm::min(lo, glm::ivec3(c.x, c.y, c.z));
    hi = glm::max(hi, glm::ivec3(c.x, c.y, c.z));
  }
  // Cells reach one voxel below the lowest tile (their other corners lie in it) and start at
  // most at the last voxel of the highest one.
  out.origin = lo * kTileSide - 1;
  record_position_of(hi * kTileSide + (kTileSide - 1), out.origin, what);

  const size_t chunks = (active.size() + kChunkTiles - 1) / kChunkTiles;
  std::vector<std::vector<CubeRecord>> chunk_records(chunks);
  tbb::parallel_for(size_t(0), chunks, [&](size_t chunk) {
    const size_t begin = chunk * kChunkTiles, end = std::min(begin + kChunkTiles, active.size());
    std::vector<CubeRecord>& records = chunk_records[chunk];
    NeighbourTracker tracker(active, +1);
    tracker.start(active[begin].key);
    TileNeighbourhood tiles(list, iso);
    std::array<size_t, 26> positions;
    int8_t block[kBlockSide * kBlockSide * kBlockSide];
    for (size_t i = begin; i < end; ++i) {
      tracker.neighbours(active[i].key, positions);
      const TileCoord coord = coord_of(active[i].key);
      tiles.reset(coord, active[i].id, positions);
      fill_block(list, tiles, iso, block);
      const glm::ivec3 tile_voxel = glm::ivec3(coord.x, coord.y, coord.z) * kTileSide;
      for (int z = -1; z < kTileSide; ++z)
        for (int y = -1; y < kTileSide; ++y)
          for (int x = -1; x < kTileSide; ++x) {
            int8_t codes[8];
            uint32_t inside = 0;
            for (int c = 0; c < 8; ++c) {
              codes[c] = block[block_index(x + (c & 1), y + ((c >> 1) & 1), z + ((c >> 2) & 1))];
              inside |= uint32_t(corner_inside(codes[c])) << c;
            }
            if (inside == 0 || inside == 0xFF || !owns_cell(tiles, {x, y, z})) continue;
            // The origin check above bounds every base voxel of the band.
            const glm::uvec3 position(tile_voxel + glm::ivec3(x, y, z) - out.origin);
            records.push_back(make_cube_record(position, codes));
          }
    }
  });
  std::vector<size_t> first(chunks + 1, 0);
  for (size_t c = 0; c < chunks; ++c) first[c + 1] = first[c] + chunk_records[c].size();
  out.records.resize(first[chunks]);
  tbb::parallel_for(size_t(0), chunks, [&](size_t c) {
    std::copy(chunk_records[c].begin(), chunk_records[c].end(), out.records.begin() + ptrdiff_t(first[c]));
  });
}

}  // namespace meniscus::sim::levelset
