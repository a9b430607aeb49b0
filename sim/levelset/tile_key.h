#pragma once
// Tile coordinates and their 32-bit keys. A key packs (z, y, x) most-significant first, so
// ordering keys is ordering tiles lexicographically by (z, y, x), which is the order of the
// sorted tile list. 11 bits for x and y, 10 for z: with 4^3 tiles a domain of up to
// 8192 x 8192 x 4096 voxels.
#include <array>
#include <cstdint>
#include <string>

namespace meniscus::sim::levelset {

struct TileCoord {
  int32_t x, y, z;
  friend bool operator==(const TileCoord&, const TileCoord&) = default;
};

inline constexpr int kKeyBitsX = 11, kKeyBitsY = 11, kKeyBitsZ = 10;
inline constexpr TileCoord kMaxTile{(1 << kKeyBitsX) - 1, (1 << kKeyBitsY) - 1, (1 << kKeyBitsZ) - 1};

inline bool representable(const TileCoord& c) {
  return c.x >= 0 && c.y >= 0 && c.z >= 0 && c.x <= kMaxTile.x && c.y <= kMaxTile.y && c.z <= kMaxTile.z;
}

inline uint32_t key_of(const TileCoord& c) {
  return uint32_t(c.z) << (kKeyBitsX + kKeyBitsY) | uint32_t(c.y) << kKeyBitsX | uint32_t(c.x);
}

inline TileCoord coord_of(uint32_t key) {
  return {int32_t(key & ((1u << kKeyBitsX) - 1)), int32_t((key >> kKeyBitsX) & ((1u << kKeyBitsY) - 1)),
          int32_t(key >> (kKeyBitsX + kKeyBitsY))};
}

// Floor division, so that negative voxel coordinates fall in the tile below (-1 / 4 is tile -1).
inline int floor_div(int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

// The 26 neighbour directions, (dx, dy, dz) in {-1, 0, 1}^3 \ {0}, in lexicographic (z, y, x)
// order; direction d's opposite is 25 - d.
const std::array<TileCoord, 26>& neighbour_offsets();

// Throws InputError naming `what` when a tile coordinate does not fit a 32-bit key.
void require_representable(const TileCoord& c, const std::string& what);

}  // namespace meniscus::sim::levelset
