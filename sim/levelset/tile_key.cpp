#include "sim/levelset/tile_key.h"

#include "engine/core/error.h"

namespace meniscus::sim::levelset {

const std::array<TileCoord, 26>& neighbour_offsets() {
  static const std::array<TileCoord, 26> offsets = [] {
    std::array<TileCoord, 26> out{};
    int n = 0;
    for (int dz = -1; dz <= 1; ++dz)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
          if (dx || dy || dz) out[n++] = {dx, dy, dz};
    return out;
  }();
  return offsets;
}

void require_representable(const TileCoord& c, const std::string& what) {
  if (!representable(c))
    throw InputError(what + ": tile (" + std::to_string(c.x) + ", " + std::to_string(c.y) + ", " + std::to_string(c.z) +
                     ") is outside the " + std::to_string(8 * sizeof(TileKey)) + "-bit tile key range (0.." +
                     std::to_string(kMaxTile.x) + ", 0.." + std::to_string(kMaxTile.y) + ", 0.." + std::to_string(kMaxTile.z) +
                     " tiles of 4 voxels" + (sizeof(TileKey) == 4 ? "; configure with -DMENISCUS_LEVELSET_WIDE_KEYS=ON for 64-bit keys)" : ")"));
}

}  // namespace meniscus::sim::levelset
