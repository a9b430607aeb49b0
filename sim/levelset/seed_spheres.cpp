#include "sim/levelset/seed_spheres.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>
#include <vector>

#include "engine/core/error.h"
#include "sim/levelset/level_set_builder.h"

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

// φ = min(φ, min_i (|x − c_i| − r_i)) over the tiles at `keys` (all in the list), clamped to ±γ,
// each tile taking only the seeds that reach it (`seeds_of[k]`: indices into `seeds`); with
// `remove`, φ = max(φ, max_i (r_i − |x − c_i|)).
void carve(SortedTileList& list, std::span<const SeedSphere> seeds, const std::vector<TileKey>& keys,
           const std::vector<std::vector<uint32_t>>& seeds_of, bool remove) {
  const float gamma = list.gamma();
  for (size_t k = 0; k < keys.size(); ++k) {
    const uint32_t id = list.active()[*list.find(keys[k])].id;
    const TileCoord t = coord_of(keys[k]);
    float phi[kTileVoxels];
    list.read(id, phi);
    for (int z = 0; z < kTileSide; ++z)
      for (int y = 0; y < kTileSide; ++y)
        for (int x = 0; x < kTileSide; ++x) {
          const glm::vec3 voxel(t.x * kTileSide + x, t.y * kTileSide + y, t.z * kTileSide + z);
          float& v = phi[SortedTileList::voxel_index(x, y, z)];
          for (const uint32_t i : seeds_of[k]) {
            const float sphere = glm::length(voxel - seeds[i].centre) - seeds[i].radius;
            v = remove ? std::max(v, -sphere) : std::min(v, sphere);
          }
          v = std::clamp(v, -gamma, gamma);
        }
    list.write(id, phi);
    list.update_flags(id);
  }
}

// Inserts the tiles at `keys` (sorted, unique) that the list lacks, each voxel row ±γ as
// inside_beyond_band says.
void insert_missing(SortedTileList& list, const std::vector<TileKey>& keys) {
  const float gamma = list.gamma();
  std::vector<TileKey> missing;
  std::vector<std::array<float, kTileSide * kTileSide>> row_signs;
  for (const TileKey key : keys) {
    if (list.find(key)) continue;
    std::array<float, kTileSide * kTileSide> signs;
    const TileCoord c = coord_of(key);
    for (int z = 0; z < kTileSide; ++z)
      for (int y = 0; y < kTileSide; ++y) {
        const glm::ivec3 row_start(c.x * kTileSide, c.y * kTileSide + y, c.z * kTileSide + z);
        signs[z * kTileSide + y] = inside_beyond_band(list, row_start) ? -gamma : gamma;
      }
    missing.push_back(key);
    row_signs.push_back(signs);
  }
  list.insert(missing, gamma);
  for (size_t i = 0; i < missing.size(); ++i) {
    float phi[kTileVoxels];
    for (int z = 0; z < kTileSide; ++z)
      for (int y = 0; y < kTileSide; ++y)
        for (int x = 0; x < kTileSide; ++x) phi[SortedTileList::voxel_index(x, y, z)] = row_signs[i][z * kTileSide + y];
    list.write(list.active()[*list.find(missing[i])].id, phi);
  }
}

void change_spheres(SortedTileList& list, std::span<const SeedSphere> seeds, const std::string& what, bool remove) {
  // (tile, seed) pairs sorted by tile: each tile is carved by the few seeds that reach it, so
  // thousands of seeds (a reconstruction's lost samples) cost what their tiles do.
  std::vector<std::pair<TileKey, uint32_t>> pairs;
  std::vector<TileKey> reached;
  for (size_t i = 0; i < seeds.size(); ++i) {
    check_seed(seeds[i], what);
    reached.clear();
    tiles_of(seeds[i], list.gamma(), what, reached);
    for (const TileKey key : reached) pairs.emplace_back(key, uint32_t(i));
  }
  std::sort(pairs.begin(), pairs.end());
  std::vector<TileKey> keys;
  std::vector<std::vector<uint32_t>> seeds_of;
  for (const auto& [key, seed] : pairs) {
    if (keys.empty() || keys.back() != key) {
      keys.push_back(key);
      seeds_of.emplace_back();
    }
    seeds_of.back().push_back(seed);
  }
  insert_missing(list, keys);
  carve(list, seeds, keys, seeds_of, remove);
  list.manage();
}

}  // namespace

void add_spheres(SortedTileList& list, std::span<const SeedSphere> seeds, const std::string& what) {
  change_spheres(list, seeds, what, false);
}

void remove_spheres(SortedTileList& list, std::span<const SeedSphere> seeds, const std::string& what) {
  change_spheres(list, seeds, what, true);
}

void build_from_spheres(SortedTileList& list, std::span<const SeedSphere> seeds, const std::string& what) {
  if (seeds.empty()) throw InputError(what + ": no seed to start from");
  add_spheres(list, seeds, what);
}

void add_sphere(SortedTileList& list, const SeedSphere& seed, const std::string& what) {
  add_spheres(list, std::span(&seed, 1), what);
}

}  // namespace meniscus::sim::levelset
