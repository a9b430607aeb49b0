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
                     ") is outside the 32-bit tile key range (0..2047, 0..2047, 0..1023 tiles of 4 voxels)");
}

}  // namespace meniscus::sim::levelset
