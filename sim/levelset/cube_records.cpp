#include "sim/levelset/cube_records.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstring>
#include <sstream>

#include "engine/core/error.h"
#include "sim/levelset/cube_record_cells.h"
#include "sim/levelset/neighbour_tracker.h"
#include "sim/levelset/tile_key.h"

namespace meniscus::sim::levelset {
namespace {

using records::block_index;
using records::kBlockSide;
using records::offset_slot;
using records::tile_offset;

// Tiles per parallel work item: fixed, so the record order never depends on the scheduler.
constexpr size_t kChunkTiles = 256;

// What one tile needs to fill its block and own its cells.
class TileNeighbourhood {
 public:
  TileNeighbourhood(const SortedTileList& list, float iso) : list_(list), iso_(iso) {}

  void reset(TileCoord centre, uint32_t centre_id, const std::array<size_t, 26>& positions) {
    centre_ = centre;
    ids_.fill(records::kNoTile);
    ids_[13] = centre_id;
    for (int d = 0; d < 26; ++d)
      if (positions[d] != SIZE_MAX) {
        const TileCoord& o = neighbour_offsets()[d];
        ids_[offset_slot(o.x, o.y, o.z)] = list_.active()[positions[d]].id;
      }
    missing_code_.fill(kUnknown);
  }

  uint32_t id(int dx, int dy, int dz) const { return ids_[offset_slot(dx, dy, dz)]; }

  // The code every voxel of the missing tile at offset (dx, dy, dz) reads.
  int8_t missing_code(int dx, int dy, int dz) {
    int16_t& code = missing_code_[offset_slot(dx, dy, dz)];
    if (code == kUnknown) {
      const bool inside = records::missing_tile_inside(
          dx, dy, dz, [this](int x, int y, int z) { return find(x, y, z); },
          [this](uint32_t id) { return list_.border(id); });
      code = records::missing_tile_code(inside, list_.gamma(), iso_);
    }
    return int8_t(code);
  }

 private:
  static constexpr int16_t kUnknown = INT16_MAX;

  // The active tile at centre + offset (any offset), or kNoTile.
  uint32_t find(int dx, int dy, int dz) const {
    if (std::abs(dx) <= 1 && std::abs(dy) <= 1 && std::abs(dz) <= 1) return id(dx, dy, dz);
    const TileCoord coord{centre_.x + dx, centre_.y + dy, centre_.z + dz};
    if (!representable(coord)) return records::kNoTile;
    const auto position = list_.find(key_of(coord));
    return position ? list_.active()[*position].id : records::kNoTile;
  }

  const SortedTileList& list_;
  float iso_;
  TileCoord centre_{0, 0, 0};
  std::array<uint32_t, 27> ids_{};
  std::array<int16_t, 27> missing_code_{};
};

void fill_block(const SortedTileList& list, TileNeighbourhood& tiles, float iso, int8_t* block) {
  const float gamma = list.gamma();
  for (int z = -1; z <= kTileSide; ++z)
    for (int y = -1; y <= kTileSide; ++y)
      for (int x = -1; x <= kTileSide; ++x) {
        const int dx = tile_offset(x), dy = tile_offset(y), dz = tile_offset(z);
        const uint32_t id = tiles.id(dx, dy, dz);
        int8_t code;
        if (id == records::kNoTile) {
          code = tiles.missing_code(dx, dy, dz);
        } else {
          const int lx = x - dx * kTileSide, ly = y - dy * kTileSide, lz = z - dz * kTileSide;
          code = quantise_corner(list.value(id, SortedTileList::voxel_index(lx, ly, lz)) - iso, gamma);
        }
        block[block_index(x, y, z)] = code;
      }
}

// The records of the band in chunks of kChunkTiles tiles, each in record order; `origin` is
// set to the record set's origin. Throws as generate_cube_records documents.
std::vector<std::vector<CubeRecord>> chunk_records(const SortedTileList& list, float iso, const char* what, glm::ivec3& origin) {
  require_iso_in_band(iso, list.gamma(), what);
  const auto& active = list.active();
  if (active.empty()) {
    origin = glm::ivec3(0);
    return {};
  }
  glm::ivec3 lo(INT_MAX), hi(INT_MIN);
  for (const TileEntry& e : active) {
    const TileCoord c = coord_of(e.key);
    lo = glm::min(lo, glm::ivec3(c.x, c.y, c.z));
    hi = glm::max(hi, glm::ivec3(c.x, c.y, c.z));
  }
  // Cells reach one voxel below the lowest tile (their other corners lie in it) and start at
  // most at the last voxel of the highest one.
  origin = lo * kTileSide - 1;
  record_position_of(hi * kTileSide + (kTileSide - 1), origin, what);

  const size_t chunks = (active.size() + kChunkTiles - 1) / kChunkTiles;
  std::vector<std::vector<CubeRecord>> out(chunks);
  tbb::parallel_for(size_t(0), chunks, [&](size_t chunk) {
    const size_t begin = chunk * kChunkTiles, end = std::min(begin + kChunkTiles, active.size());
    std::vector<CubeRecord>& records = out[chunk];
    NeighbourTracker tracker(active, +1);
    tracker.start(active[begin].key);
    TileNeighbourhood tiles(list, iso);
    std::array<size_t, 26> positions;
    int8_t block[records::kBlockVoxels];
    const auto present = [&tiles](int dx, int dy, int dz) { return tiles.id(dx, dy, dz) != records::kNoTile; };
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
            if (!records::crossed(records::cell_codes(block, x, y, z, codes)) || !records::owns_cell(x, y, z, present))
              continue;
            // The origin check above bounds every base voxel of the band.
            const glm::uvec3 position(tile_voxel + glm::ivec3(x, y, z) - origin);
            records.push_back(make_cube_record(position, codes));
          }
    }
  });
  return out;
}

}  // namespace

void require_iso_in_band(float iso, float gamma, const char* what) {
  if (std::abs(iso) < gamma) return;
  std::ostringstream message;
  message << what << ": iso value " << iso << " lies outside the narrow band (-" << gamma << ", " << gamma << ")";
  throw InputError(message.str());
}

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
  glm::ivec3 origin;
  const std::vector<std::vector<CubeRecord>> chunks = chunk_records(list, iso, what, origin);
  out.gamma = list.gamma();
  out.iso = iso;
  out.origin = origin;
  out.records.clear();
  std::vector<size_t> first(chunks.size() + 1, 0);
  for (size_t c = 0; c < chunks.size(); ++c) first[c + 1] = first[c] + chunks[c].size();
  out.records.resize(first.back());
  tbb::parallel_for(size_t(0), chunks.size(), [&](size_t c) {
    std::copy(chunks[c].begin(), chunks[c].end(), out.records.begin() + ptrdiff_t(first[c]));
  });
}

uint32_t write_cube_records(const SortedTileList& list, float iso, std::byte* buffer, uint32_t capacity, const char* what) {
  glm::ivec3 origin;
  const std::vector<std::vector<CubeRecord>> chunks = chunk_records(list, iso, what, origin);
  std::vector<size_t> first(chunks.size() + 1, 0);
  for (size_t c = 0; c < chunks.size(); ++c) first[c + 1] = first[c] + chunks[c].size();
  // Up to 125 records a tile: a list of over 34M tiles could outgrow the header's 32-bit count.
  if (first.back() > UINT32_MAX) {
    std::ostringstream message;
    message << what << ": " << first.back() << " cube records do not fit a 32-bit record count";
    throw InputError(message.str());
  }
  const uint32_t needed = uint32_t(first.back());
  CubeRecordHeader header{};
  header.count = std::min(needed, capacity);
  header.needed = needed;
  for (int axis = 0; axis < 3; ++axis) header.origin[axis] = origin[axis];
  header.gamma = list.gamma();
  header.iso = iso;
  header.reserved = 0;
  std::memcpy(buffer, &header, sizeof header);
  std::byte* const records = buffer + kCubeRecordsOffset;
  tbb::parallel_for(size_t(0), chunks.size(), [&](size_t c) {
    if (first[c] >= header.count) return;
    const size_t n = std::min(chunks[c].size(), header.count - first[c]);
    std::memcpy(records + first[c] * sizeof(CubeRecord), chunks[c].data(), n * sizeof(CubeRecord));
  });
  return needed;
}

void check_cube_record_header(const CubeRecordHeader& header, const char* what) {
  if (!(header.reserved & kCubeRecordsTooWide)) return;
  std::ostringstream message;
  message << what << ": the narrow band, whose cube records start at voxel (" << header.origin[0] << ", " << header.origin[1]
          << ", " << header.origin[2] << "), spans more than " << kMaxRecordCoordinate + 1
          << " voxels along an axis; cube records hold 16-bit positions (0.." << kMaxRecordCoordinate
          << "), so the device wrote none of its " << header.needed << " records";
  throw InputError(message.str());
}

}  // namespace meniscus::sim::levelset
