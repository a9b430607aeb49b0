#pragma once
// Tile coordinates and their keys. A key packs (z, y, x) most-significant first, so ordering
// keys is ordering tiles lexicographically by (z, y, x), which is the order of the sorted tile
// list. The paper's 32-bit keys (11 bits for x and y, 10 for z: with 4^3 tiles a domain of up
// to 8192 x 8192 x 4096 voxels) are the default; configuring with
// -DMENISCUS_LEVELSET_WIDE_KEYS=ON gives 64-bit keys (21 bits each: 8M voxels a side) "at the
// expense of some speed and storage space" (§3.2), one more word per list entry. A compile-time
// choice: the key is compared in every inner loop, and a run-time switch would cost both widths
// a branch there.
#include <array>
#include <cstdint>
#include <string>

#include "sim/common/host_device.h"

namespace meniscus::sim::levelset {

struct TileCoord {
  int32_t x, y, z;
  friend bool operator==(const TileCoord&, const TileCoord&) = default;
};

#if MENISCUS_LEVELSET_WIDE_KEYS
using TileKey = uint64_t;
inline constexpr int kKeyBitsX = 21, kKeyBitsY = 21, kKeyBitsZ = 21;
#else
using TileKey = uint32_t;
inline constexpr int kKeyBitsX = 11, kKeyBitsY = 11, kKeyBitsZ = 10;
#endif
inline constexpr TileCoord kMaxTile{(1 << kKeyBitsX) - 1, (1 << kKeyBitsY) - 1, (1 << kKeyBitsZ) - 1};

MENISCUS_HD inline bool representable(const TileCoord& c) {
  return c.x >= 0 && c.y >= 0 && c.z >= 0 && c.x <= kMaxTile.x && c.y <= kMaxTile.y && c.z <= kMaxTile.z;
}

MENISCUS_HD inline TileKey key_of(const TileCoord& c) {
  return TileKey(c.z) << (kKeyBitsX + kKeyBitsY) | TileKey(c.y) << kKeyBitsX | TileKey(c.x);
}

MENISCUS_HD inline TileCoord coord_of(TileKey key) {
  return {int32_t(key & ((TileKey(1) << kKeyBitsX) - 1)), int32_t((key >> kKeyBitsX) & ((TileKey(1) << kKeyBitsY) - 1)),
          int32_t(key >> (kKeyBitsX + kKeyBitsY))};
}

// Floor division, so that negative voxel coordinates fall in the tile below (-1 / 4 is tile -1).
inline int floor_div(int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

// The 26 neighbour directions, (dx, dy, dz) in {-1, 0, 1}^3 \ {0}, in lexicographic (z, y, x)
// order; direction d's opposite is 25 - d.
const std::array<TileCoord, 26>& neighbour_offsets();

// The index into neighbour_offsets() of offset (dx, dy, dz), each in {-1, 0, 1}, not all 0.
inline int direction_of(int dx, int dy, int dz) {
  const int linear = (dz + 1) * 9 + (dy + 1) * 3 + (dx + 1);  // 0..26, 13 is the centre
  return linear < 13 ? linear : linear - 1;
}

// Throws InputError naming `what` when a tile coordinate does not fit a 32-bit key.
void require_representable(const TileCoord& c, const std::string& what);

}  // namespace meniscus::sim::levelset
