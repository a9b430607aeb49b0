#pragma once
// The rules that turn one tile of a sorted tile list into cube records (see cube_records.h),
// compiled for both backends so that the CPU (cube_records.cpp) and CUDA
// (gpu_stl_records_cuda.cu) write the same bytes: each finds the tiles around a tile its own
// way, and both then decide signs, codes and ownership here.
//
// A tile's cells read a 6^3 block of corner codes: its own voxels and one layer of its
// neighbours' on every side (local coordinates -1..kTileSide). Its cells have base voxels
// -1..kTileSide-1 per axis, 5^3 of them, (z, y, x) order being the record order.
#include <cstdint>

#include "sim/common/host_device.h"
#include "sim/histopyramid/cube_record.h"
#include "sim/levelset/sorted_tile_list.h"

namespace meniscus::sim::levelset::records {

inline constexpr uint32_t kNoTile = UINT32_MAX;
inline constexpr int kBlockSide = kTileSide + 2;
inline constexpr int kBlockVoxels = kBlockSide * kBlockSide * kBlockSide;
inline constexpr int kCellSide = kTileSide + 1;
inline constexpr int kCells = kCellSide * kCellSide * kCellSide;

MENISCUS_HD inline int block_index(int x, int y, int z) { return ((z + 1) * kBlockSide + (y + 1)) * kBlockSide + (x + 1); }

// Index 0..26 of a tile offset in {-1, 0, 1}^3, ordered as its key: below 13 is a smaller key
// than the centre tile's, 13 the centre.
MENISCUS_HD inline int offset_slot(int dx, int dy, int dz) { return (dz + 1) * 9 + (dy + 1) * 3 + (dx + 1); }

// The direction index (neighbour_offsets() order, the centre left out) of an offset.
MENISCUS_HD inline int direction_of(int dx, int dy, int dz) {
  const int slot = offset_slot(dx, dy, dz);
  return slot < 13 ? slot : slot - 1;
}

// The tile offset along one axis of block coordinate v (-1..kTileSide).
MENISCUS_HD inline int tile_offset(int v) { return v < 0 ? -1 : v >= kTileSide ? 1 : 0; }

// Whether every voxel of the missing tile at `o` (relative to the block's tile, within one
// tile) reads as inside: the border flag facing it of its first active neighbour, faces
// before edges before corners, lexicographic within each (the nearer the neighbour, the more
// its flag says about the missing tile). The answer depends on the missing tile alone, never
// on which tile asks, so cells that share its voxels agree on their sign (a crack otherwise).
// find(dx, dy, dz): the id of the active tile at that offset from the block's tile (each within
// two tiles), or kNoTile; border(id): its border flags.
template <class Find, class Border>
MENISCUS_HD bool missing_tile_inside(int ox, int oy, int oz, const Find& find, const Border& border) {
  for (int nonzero = 1; nonzero <= 3; ++nonzero)
    for (int slot = 0; slot < 27; ++slot) {
      const int ex = slot % 3 - 1, ey = slot / 3 % 3 - 1, ez = slot / 9 - 1;
      if ((ex != 0) + (ey != 0) + (ez != 0) != nonzero) continue;
      const uint32_t neighbour = find(ox + ex, oy + ey, oz + ez);
      if (neighbour != kNoTile) return (border(neighbour) >> direction_of(-ex, -ey, -ez) & 1u) != 0;
    }
  return false;  // unreachable: the block's own tile neighbours every tile its block touches
}

// The code every voxel of a missing tile reads.
MENISCUS_HD inline int8_t missing_tile_code(bool inside, float gamma, float iso) {
  return quantise_corner((inside ? -gamma : gamma) - iso, gamma);
}

// The eight corner codes of the cell with base voxel (x, y, z) (block coordinates), corner c
// at (x + (c & 1), y + (c >> 1 & 1), z + (c >> 2 & 1)); returns the inside bits (the case).
MENISCUS_HD inline uint32_t cell_codes(const int8_t* block, int x, int y, int z, int8_t codes[8]) {
  uint32_t inside = 0;
  for (int c = 0; c < 8; ++c) {
    codes[c] = block[block_index(x + (c & 1), y + ((c >> 1) & 1), z + ((c >> 2) & 1))];
    inside |= uint32_t(corner_inside(codes[c])) << c;
  }
  return inside;
}

MENISCUS_HD inline bool crossed(uint32_t inside) { return inside != 0 && inside != 0xFF; }

// Whether the block's tile writes the cell with base voxel (x, y, z): the active tile of
// smallest key among those holding its corners does, so each cell is written exactly once.
// present(dx, dy, dz): whether the tile at that offset (within one tile) is active.
template <class Present>
MENISCUS_HD bool owns_cell(int x, int y, int z, const Present& present) {
  if (x >= 0 && y >= 0 && z >= 0) return true;  // the smallest possible key: its own
  for (int c = 0; c < 8; ++c) {
    const int dx = tile_offset(x + (c & 1)), dy = tile_offset(y + ((c >> 1) & 1)), dz = tile_offset(z + ((c >> 2) & 1));
    if (offset_slot(dx, dy, dz) < 13 && present(dx, dy, dz)) return false;
  }
  return true;
}

}  // namespace meniscus::sim::levelset::records
