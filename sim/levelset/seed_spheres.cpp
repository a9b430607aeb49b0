#include "sim/levelset/seed_spheres.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "engine/core/error.h"

namespace meniscus::sim::levelset {

namespace {

void check_seed(const SeedSphere& s, const std::string& what) {
  if (!(std::isfinite(s.radius) && s.radius > 0.0f) || !std::isfinite(s.centre.x) || !std::isfinite(s.centre.y) ||
      !std::isfinite(s.centre.z))
    throw InputError(what + ": a seed needs a finite centre and a positive radius");
}

// The tiles a sphere's shell of half-width γ may touch (one voxel more for rounding).
void tiles_of(const SeedSphere& s, float gamma, const std::string& what, std::vector<TileKey>& keys) {
  const float reach = s.radius + gamma + 1.0f;
  const glm::ivec3 lo = glm::ivec3(glm::floor((s.centre - reach) / float(kTileSide)));
  const glm::ivec3 hi = glm::ivec3(glm::floor((s.centre + reach) / float(kTileSide)));
  require_representable({lo.x, lo.y, lo.z}, what + ": seed");
  require_representable({hi.x, hi.y, hi.z}, what + ": seed");
  for (int z = lo.z; z <= hi.z; ++z)
    for (int y = lo.y; y <= hi.y; ++y)
      for (int x = lo.x; x <= hi.x; ++x) keys.push_back(key_of({x, y, z}));
}

// φ = min(φ, min_i (|x − c_i| − r_i)) over the tiles at `keys` (all in the list), clamped to ±γ.
void carve(SortedTileList& list, std::span<const SeedSphere> seeds, const std::vector<TileKey>& keys) {
  const float gamma = list.gamma();
  for (const TileKey key : keys) {
    const uint32_t id = list.active()[*list.find(key)].id;
    const TileCoord t = coord_of(key);
    float* phi = list.tile(id);
    for (int z = 0; z < kTileSide; ++z)
      for (int y = 0; y < kTileSide; ++y)
        for (int x = 0; x < kTileSide; ++x) {
          const glm::vec3 voxel(t.x * kTileSide + x, t.y * kTileSide + y, t.z * kTileSide + z);
          float& v = phi[SortedTileList::voxel_index(x, y, z)];
          for (const SeedSphere& s : seeds) v = std::min(v, glm::length(voxel - s.centre) - s.radius);
          v = std::clamp(v, -gamma, gamma);
        }
    list.update_flags(id);
  }
}

// Inserts the tiles at `keys` (sorted, unique) that the list lacks. A missing tile lies wholly
// inside or outside (beyond the band); which, row by row of voxels, the nearest stored tile
// before it in its tile row says (the last voxel of that row), as inside_moments() decides:
// rows start outside.
void insert_missing(SortedTileList& list, const std::vector<TileKey>& keys) {
  const float gamma = list.gamma();
  std::vector<TileKey> missing;
  std::vector<std::array<float, kTileSide * kTileSide>> row_signs;
  for (const TileKey key : keys) {
    if (list.find(key)) continue;
    std::array<float, kTileSide * kTileSide> signs;
    signs.fill(gamma);
    const auto& active = list.active();
    auto it = std::lower_bound(active.begin(), active.end(), key, [](const TileEntry& e, TileKey k) { return e.key < k; });
    const TileCoord c = coord_of(key);
    if (it != active.begin()) {
      const TileEntry before = *std::prev(it);
      const TileCoord b = coord_of(before.key);
      if (b.y == c.y && b.z == c.z)
        for (int z = 0; z < kTileSide; ++z)
          for (int y = 0; y < kTileSide; ++y)
            signs[z * kTileSide + y] = list.tile(before.id)[SortedTileList::voxel_index(kTileSide - 1, y, z)] < 0 ? -gamma : gamma;
    }
    missing.push_back(key);
    row_signs.push_back(signs);
  }
  list.insert(missing, gamma);
  for (size_t i = 0; i < missing.size(); ++i) {
    float* phi = list.tile(list.active()[*list.find(missing[i])].id);
    for (int z = 0; z < kTileSide; ++z)
      for (int y = 0; y < kTileSide; ++y)
        for (int x = 0; x < kTileSide; ++x) phi[SortedTileList::voxel_index(x, y, z)] = row_signs[i][z * kTileSide + y];
  }
}

}  // namespace

void build_from_spheres(SortedTileList& list, std::span<const SeedSphere> seeds, const std::string& what) {
  if (seeds.empty()) throw InputError(what + ": no seed to start from");
  std::vector<TileKey> keys;
  for (const SeedSphere& s : seeds) {
    check_seed(s, what);
    tiles_of(s, list.gamma(), what, keys);
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  insert_missing(list, keys);
  carve(list, seeds, keys);
  list.manage();
}

void add_sphere(SortedTileList& list, const SeedSphere& seed, const std::string& what) {
  check_seed(seed, what);
  std::vector<TileKey> keys;
  tiles_of(seed, list.gamma(), what, keys);
  insert_missing(list, keys);
  carve(list, std::span(&seed, 1), keys);
  list.manage();
}

}  // namespace meniscus::sim::levelset
