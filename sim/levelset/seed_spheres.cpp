#include "sim/levelset/seed_spheres.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/core/error.h"

namespace meniscus::sim::levelset {

void build_from_spheres(SortedTileList& list, std::span<const SeedSphere> seeds, const std::string& what) {
  if (seeds.empty()) throw InputError(what + ": no seed to start from");
  const float gamma = list.gamma();
  std::vector<TileKey> keys;
  for (const SeedSphere& s : seeds) {
    if (!(std::isfinite(s.radius) && s.radius > 0.0f) || !std::isfinite(s.centre.x) || !std::isfinite(s.centre.y) ||
        !std::isfinite(s.centre.z))
      throw InputError(what + ": a seed needs a finite centre and a positive radius");
    // Every tile the sphere's shell of half-width γ may touch (one voxel more for rounding).
    const float reach = s.radius + gamma + 1.0f;
    const glm::ivec3 lo = glm::ivec3(glm::floor((s.centre - reach) / float(kTileSide)));
    const glm::ivec3 hi = glm::ivec3(glm::floor((s.centre + reach) / float(kTileSide)));
    require_representable({lo.x, lo.y, lo.z}, what + ": seed");
    require_representable({hi.x, hi.y, hi.z}, what + ": seed");
    for (int z = lo.z; z <= hi.z; ++z)
      for (int y = lo.y; y <= hi.y; ++y)
        for (int x = lo.x; x <= hi.x; ++x) keys.push_back(key_of({x, y, z}));
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  list.insert(keys, gamma);
  for (const TileEntry& e : list.active()) {
    const TileCoord t = coord_of(e.key);
    float* phi = list.tile(e.id);
    for (int z = 0; z < kTileSide; ++z)
      for (int y = 0; y < kTileSide; ++y)
        for (int x = 0; x < kTileSide; ++x) {
          const glm::vec3 voxel(t.x * kTileSide + x, t.y * kTileSide + y, t.z * kTileSide + z);
          float d = gamma;
          for (const SeedSphere& s : seeds) d = std::min(d, glm::length(voxel - s.centre) - s.radius);
          phi[SortedTileList::voxel_index(x, y, z)] = std::clamp(d, -gamma, gamma);
        }
    list.update_flags(e.id);
  }
  list.manage();
}

}  // namespace meniscus::sim::levelset
