#include "sim/levelset/level_set_builder.h"

#include <algorithm>
#include <cmath>

namespace meniscus::sim::levelset {
namespace {

void fill_tile(SortedTileList& list, uint32_t id, TileCoord c, const DistanceFn& sdf) {
  float v[kTileVoxels];
  const float gamma = list.gamma();
  for (int z = 0; z < kTileSide; ++z)
    for (int y = 0; y < kTileSide; ++y)
      for (int x = 0; x < kTileSide; ++x) {
        const glm::vec3 p(c.x * kTileSide + x, c.y * kTileSide + y, c.z * kTileSide + z);
        v[SortedTileList::voxel_index(x, y, z)] = std::clamp(sdf(p), -gamma, gamma);
      }
  list.write(id, v);
  list.update_flags(id);
}

}  // namespace

void build_from_sdf(SortedTileList& list, const DistanceFn& sdf, glm::ivec3 voxel_min, glm::ivec3 voxel_max) {
  const TileCoord lo{floor_div(voxel_min.x, kTileSide), floor_div(voxel_min.y, kTileSide), floor_div(voxel_min.z, kTileSide)};
  const TileCoord hi{floor_div(voxel_max.x - 1, kTileSide), floor_div(voxel_max.y - 1, kTileSide),
                     floor_div(voxel_max.z - 1, kTileSide)};
  require_representable(lo, "level set domain");
  require_representable(hi, "level set domain");
  const float gamma = list.gamma();
  const float half_diagonal = 0.5f * std::sqrt(3.0f) * (kTileSide - 1);
  std::vector<TileKey> keys;
  for (int z = lo.z; z <= hi.z; ++z)  // (z, y, x) loops produce keys in increasing order
    for (int y = lo.y; y <= hi.y; ++y)
      for (int x = lo.x; x <= hi.x; ++x) {
        const glm::vec3 centre = glm::vec3(x, y, z) * float(kTileSide) + 0.5f * (kTileSide - 1);
        if (std::abs(sdf(centre)) >= gamma + half_diagonal) continue;
        // Examine the voxels: keep the tile only if one of them is inside the band.
        bool band = false;
        for (int k = 0; k < kTileVoxels && !band; ++k) {
          const glm::vec3 p = glm::vec3(x, y, z) * float(kTileSide) + glm::vec3(k % 4, k / 4 % 4, k / 16);
          band = std::abs(sdf(p)) < gamma;
        }
        if (band) keys.push_back(key_of({x, y, z}));
      }
  list.insert(keys, gamma);
  for (const TileEntry& e : list.active()) fill_tile(list, e.id, coord_of(e.key), sdf);
}

void resample(SortedTileList& list, const DistanceFn& sdf) {
  for (const TileEntry& e : list.active()) fill_tile(list, e.id, coord_of(e.key), sdf);
}

std::optional<float> value_at(const SortedTileList& list, glm::ivec3 voxel) {
  const TileCoord c{floor_div(voxel.x, kTileSide), floor_div(voxel.y, kTileSide), floor_div(voxel.z, kTileSide)};
  if (!representable(c)) return std::nullopt;
  const auto at = list.find(key_of(c));
  if (!at) return std::nullopt;
  const glm::ivec3 local = voxel - glm::ivec3(c.x, c.y, c.z) * kTileSide;
  return list.value(list.active()[*at].id, SortedTileList::voxel_index(local.x, local.y, local.z));
}

bool inside_beyond_band(const SortedTileList& list, glm::ivec3 voxel) {
  const TileCoord c{floor_div(voxel.x, kTileSide), floor_div(voxel.y, kTileSide), floor_div(voxel.z, kTileSide)};
  if (!representable(c)) return false;
  const auto& active = list.active();
  const auto after = std::lower_bound(active.begin(), active.end(), key_of(c),
                                      [](const TileEntry& e, TileKey k) { return e.key < k; });
  if (after == active.begin()) return false;
  const TileEntry before = *std::prev(after);
  const TileCoord b = coord_of(before.key);
  if (b.y != c.y || b.z != c.z) return false;
  const glm::ivec3 local = voxel - glm::ivec3(c.x, c.y, c.z) * kTileSide;
  return list.value(before.id, SortedTileList::voxel_index(kTileSide - 1, local.y, local.z)) < 0;
}

bool inside_at(const SortedTileList& list, glm::ivec3 voxel) {
  if (glm::any(glm::lessThan(voxel, glm::ivec3(0)))) return false;
  const std::optional<float> value = value_at(list, voxel);
  return value ? *value < 0.0f : inside_beyond_band(list, voxel);
}

float sample(const SortedTileList& list, glm::ivec3 voxel, float outside_sign) {
  return value_at(list, voxel).value_or(outside_sign * list.gamma());
}

double mean_crossing_distance(const SortedTileList& list, glm::vec3 centre) {
  double sum = 0;
  size_t count = 0;
  for (const TileEntry& e : list.active()) {
    const TileCoord c = coord_of(e.key);
    for (int k = 0; k < kTileVoxels; ++k) {
      const glm::ivec3 p = glm::ivec3(c.x, c.y, c.z) * kTileSide + glm::ivec3(k % 4, k / 4 % 4, k / 16);
      const float a = list.value(e.id, k);
      for (int axis = 0; axis < 3; ++axis) {
        glm::ivec3 q = p;
        ++q[axis];
        const std::optional<float> b = value_at(list, q);
        if (!b || (a < 0) == (*b < 0)) continue;  // no tile there: beyond the band, no crossing
        glm::vec3 x(p);
        x[axis] += a / (a - *b);
        sum += glm::length(x - centre);
        ++count;
      }
    }
  }
  return count ? sum / double(count) : 0.0;
}

}  // namespace meniscus::sim::levelset
