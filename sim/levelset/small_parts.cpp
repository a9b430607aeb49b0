#include "sim/levelset/small_parts.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "sim/levelset/level_set_builder.h"

namespace meniscus::sim::levelset {

namespace {

// A voxel of the band: its tile's position in the active list and its index in the tile.
struct BandVoxel {
  uint32_t position = 0;
  int voxel = 0;
};

// Calls visit(coord) for the tile at c and each of its 26 neighbours that keys can represent.
template <typename Visit>
void for_each_tile_around(const TileCoord& c, Visit&& visit) {
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const TileCoord n{c.x + dx, c.y + dy, c.z + dz};
        if (representable(n)) visit(n);
      }
}

// Regions on one side of the surface (φ < 0 for `inside`, else φ >= 0), joined across faces,
// of fewer than max_voxels voxels that do not reach a tile beyond the band on their side, made
// the other side, with the band around them.
size_t remove_small_regions(SortedTileList& list, size_t max_voxels, bool inside) {
  const auto on_side = [inside](float phi) { return (phi < 0.0f) == inside; };
  const auto& active = list.active();
  std::vector<uint64_t> visited(active.size(), 0);  // one bit per voxel: kTileVoxels == 64
  static_assert(kTileVoxels == 64);
  std::vector<BandVoxel> region, stack;
  std::vector<BandVoxel> remove;
  for (uint32_t start = 0; start < active.size(); ++start) {
    const uint32_t start_id = active[start].id;
    for (int v = 0; v < kTileVoxels; ++v) {
      if (visited[start] >> v & 1 || !on_side(list.value(start_id, v))) continue;
      // Flood the region from here, keeping its voxels while it may still be small.
      region.clear();
      stack.assign(1, {start, v});
      visited[start] |= uint64_t(1) << v;
      bool anchored = false;
      size_t size = 0;
      while (!stack.empty()) {
        const BandVoxel at = stack.back();
        stack.pop_back();
        ++size;
        if (size <= max_voxels) region.push_back(at);
        const TileCoord tile = coord_of(active[at.position].key);
        const glm::ivec3 local(at.voxel % kTileSide, at.voxel / kTileSide % kTileSide,
                               at.voxel / (kTileSide * kTileSide));
        for (int face = 0; face < 6; ++face) {
          glm::ivec3 q = local;
          q[face / 2] += face % 2 ? 1 : -1;
          uint32_t position = at.position;
          if (q[face / 2] < 0 || q[face / 2] >= kTileSide) {
            TileCoord n = tile;
            int* axis[3] = {&n.x, &n.y, &n.z};
            *axis[face / 2] += face % 2 ? 1 : -1;
            const glm::ivec3 voxel = glm::ivec3(tile.x, tile.y, tile.z) * kTileSide + q;
            const auto found = representable(n) ? list.find(key_of(n)) : std::nullopt;
            if (!found) {
              anchored = anchored || inside_beyond_band(list, voxel) == inside;
              continue;
            }
            position = uint32_t(*found);
            q[face / 2] = (q[face / 2] + kTileSide) % kTileSide;
          }
          const int voxel = SortedTileList::voxel_index(q.x, q.y, q.z);
          if (visited[position] >> voxel & 1 || !on_side(list.value(active[position].id, voxel))) continue;
          visited[position] |= uint64_t(1) << voxel;
          stack.push_back({position, voxel});
        }
      }
      if (!anchored && size < max_voxels) remove.insert(remove.end(), region.begin(), region.end());
    }
  }
  // The regions' voxels go to the other side, and so does the rest of the band around them:
  // every tile they touched, and its neighbours, that no voxel of the region's side is left in
  // or next to: ±γ there, which the next management drops, rather than a band around no surface.
  const float gamma = inside ? list.gamma() : -list.gamma();
  std::vector<uint32_t> touched;
  for (const BandVoxel& at : remove) {
    const uint32_t id = active[at.position].id;
    float phi[kTileVoxels];
    list.read(id, phi);
    phi[at.voxel] = gamma;
    list.write(id, phi);
    touched.push_back(at.position);
  }
  std::sort(touched.begin(), touched.end());
  touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
  const auto holds_side = [&](size_t position) {
    for (int v = 0; v < kTileVoxels; ++v)
      if (on_side(list.value(active[position].id, v))) return true;
    return false;
  };
  const auto near_side = [&](const TileCoord& c) {
    bool near = false;
    for_each_tile_around(c, [&](const TileCoord& n) {
      const auto found = list.find(key_of(n));
      near = near ||
             (found ? holds_side(*found) : inside_beyond_band(list, glm::ivec3(n.x, n.y, n.z) * kTileSide) == inside);
    });
    return near;
  };
  std::vector<size_t> cleared;
  for (const uint32_t position : touched)
    for_each_tile_around(coord_of(active[position].key), [&](const TileCoord& n) {
      const auto found = list.find(key_of(n));
      if (found && !near_side(n)) cleared.push_back(*found);
    });
  std::sort(cleared.begin(), cleared.end());
  cleared.erase(std::unique(cleared.begin(), cleared.end()), cleared.end());
  float other_side[kTileVoxels];
  std::fill(other_side, other_side + kTileVoxels, gamma);
  for (const size_t position : cleared) list.write(active[position].id, other_side);
  for (const uint32_t position : touched) list.update_flags(active[position].id);
  for (const size_t position : cleared) list.update_flags(active[position].id);
  return remove.size();
}

}  // namespace

size_t remove_small_parts(SortedTileList& list, size_t max_voxels) {
  return remove_small_regions(list, max_voxels, true);
}

size_t remove_small_holes(SortedTileList& list, size_t max_voxels) {
  return remove_small_regions(list, max_voxels, false);
}

}  // namespace meniscus::sim::levelset
