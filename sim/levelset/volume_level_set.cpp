#include "sim/levelset/volume_level_set.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/core/error.h"
#include "sim/levelset/reinitialise.h"

namespace meniscus::sim::levelset {
namespace {

// The padded grid the level set is built on: the volume plus `margin` outside samples a side.
struct PaddedGrid {
  const DenseVolumeView& volume;
  float iso;
  int margin;
  glm::ivec3 dims;

  size_t index(int x, int y, int z) const { return (size_t(z) * dims.y + y) * dims.x + x; }
  // The sample at padded voxel (x, y, z); beyond the volume, one below the iso value (outside).
  float value(int x, int y, int z) const {
    const glm::ivec3 v = glm::ivec3(x, y, z) - margin;
    if (glm::any(glm::lessThan(v, glm::ivec3(0))) || glm::any(glm::greaterThanEqual(v, volume.dims))) return iso - 1.0f;
    return volume.values[(size_t(v.z) * volume.dims.y + v.y) * volume.dims.x + v.x];
  }
  bool inside(int x, int y, int z) const { return value(x, y, z) >= iso; }
};

// Signed distance of a voxel next to the surface: per axis, the nearer of its two edge
// crossings (fraction of the edge), combined as the distance to the plane through them.
// NaN when no edge from this voxel crosses.
float crossing_distance(const PaddedGrid& g, int x, int y, int z) {
  const float v = g.value(x, y, z);
  const bool in = v >= g.iso;
  float inverse_square_sum = 0;
  const glm::ivec3 p(x, y, z);
  for (int axis = 0; axis < 3; ++axis) {
    float nearest = INFINITY;
    for (const int step : {-1, 1}) {
      glm::ivec3 q = p;
      q[axis] += step;
      if (q[axis] < 0 || q[axis] >= g.dims[axis]) continue;
      const float w = g.value(q.x, q.y, q.z);
      if ((w >= g.iso) == in) continue;
      // The crossing lies where the linear interpolant meets iso; a sample equal to iso is
      // inside and sits on the surface itself (distance 0).
      nearest = std::min(nearest, (v - g.iso) / (v - w));
    }
    if (std::isfinite(nearest)) inverse_square_sum += 1.0f / std::max(nearest * nearest, 1e-12f);
  }
  if (inverse_square_sum == 0) return NAN;
  const float distance = 1.0f / std::sqrt(inverse_square_sum);
  return in ? -distance : distance;
}

}  // namespace

VolumeLevelSetStats build_from_volume(SortedTileList& list, const DenseVolumeView& volume, float iso, int margin,
                                      int reinit_iterations, const std::string& name) {
  if (glm::any(glm::lessThan(volume.dims, glm::ivec3(1)))) throw InputError(name + ": empty volume");
  if (volume.values.size() != size_t(volume.dims.x) * volume.dims.y * volume.dims.z)
    throw InputError(name + ": " + std::to_string(volume.values.size()) + " samples for dimensions " +
                     std::to_string(volume.dims.x) + " x " + std::to_string(volume.dims.y) + " x " + std::to_string(volume.dims.z));
  if (margin < 1) throw InputError(name + ": margin must be at least one voxel");
  if (!std::isfinite(iso)) throw InputError(name + ": the iso value must be finite");
  float lo = INFINITY, hi = -INFINITY;
  for (size_t i = 0; i < volume.values.size(); ++i) {
    const float v = volume.values[i];
    if (!std::isfinite(v)) throw InputError(name + ": sample " + std::to_string(i) + " is not finite");
    lo = std::min(lo, v), hi = std::max(hi, v);
  }
  if (!(iso > lo && iso <= hi))
    throw InputError(name + ": iso value " + std::to_string(iso) + " outside the data range (" + std::to_string(lo) + ", " +
                     std::to_string(hi) + "]: no surface");

  const PaddedGrid grid{volume, iso, margin, volume.dims + 2 * margin};
  const TileCoord top{(grid.dims.x - 1) / kTileSide, (grid.dims.y - 1) / kTileSide, (grid.dims.z - 1) / kTileSide};
  require_representable(top, name + ": level set domain");

  // φ on the padded grid, ±γ away from the surface.
  const float gamma = list.gamma();
  std::vector<float> phi(size_t(grid.dims.x) * grid.dims.y * grid.dims.z);
  tbb::parallel_for(0, grid.dims.z, [&](int z) {
    for (int y = 0; y < grid.dims.y; ++y)
      for (int x = 0; x < grid.dims.x; ++x) {
        const float d = crossing_distance(grid, x, y, z);
        phi[grid.index(x, y, z)] = std::isfinite(d) ? std::clamp(d, -gamma, gamma) : (grid.inside(x, y, z) ? -gamma : gamma);
      }
  });
  VolumeLevelSetStats stats;
  for (const float d : phi) stats.crossing_voxels += std::abs(d) < gamma;
  // One voxel further out: the nearest crossing voxel's distance plus the step to it (a
  // one-pass fast-marching estimate that reinitialisation then refines).
  std::vector<float> next = phi;
  tbb::parallel_for(0, grid.dims.z, [&](int z) {
    for (int y = 0; y < grid.dims.y; ++y)
      for (int x = 0; x < grid.dims.x; ++x) {
        const float here = phi[grid.index(x, y, z)];
        if (std::abs(here) < gamma) continue;
        float best = gamma;
        for (int dz = -1; dz <= 1; ++dz)
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
              const int nx = x + dx, ny = y + dy, nz = z + dz;
              if (nx < 0 || ny < 0 || nz < 0 || nx >= grid.dims.x || ny >= grid.dims.y || nz >= grid.dims.z) continue;
              const float n = phi[grid.index(nx, ny, nz)];
              if (std::abs(n) >= gamma || (n < 0) != (here < 0)) continue;
              best = std::min(best, std::abs(n) + std::sqrt(float(dx * dx + dy * dy + dz * dz)));
            }
        next[grid.index(x, y, z)] = std::copysign(best, here);
      }
  });
  phi.swap(next);

  // The tiles holding a voxel inside the band, in key order.
  std::vector<TileKey> keys;
  for (int tz = 0; tz <= top.z; ++tz)
    for (int ty = 0; ty <= top.y; ++ty)
      for (int tx = 0; tx <= top.x; ++tx) {
        bool band = false;
        for (int k = 0; k < kTileVoxels && !band; ++k) {
          const int x = tx * kTileSide + k % 4, y = ty * kTileSide + k / 4 % 4, z = tz * kTileSide + k / 16;
          band = x < grid.dims.x && y < grid.dims.y && z < grid.dims.z && std::abs(phi[grid.index(x, y, z)]) < gamma;
        }
        if (band) keys.push_back(key_of({tx, ty, tz}));
      }
  list.insert(keys, gamma);
  for (const TileEntry& e : list.active()) {
    const TileCoord c = coord_of(e.key);
    float out[kTileVoxels];
    for (int k = 0; k < kTileVoxels; ++k) {
      const int x = c.x * kTileSide + k % 4, y = c.y * kTileSide + k / 4 % 4, z = c.z * kTileSide + k / 16;
      out[k] = x < grid.dims.x && y < grid.dims.y && z < grid.dims.z ? phi[grid.index(x, y, z)] : gamma;
    }
    list.write(e.id, out);
    list.update_flags(e.id);
  }
  Reinitialiser().run(list, {reinit_iterations, Scheme::kUpwind, 0.5f});
  for (const TileEntry& e : list.active()) list.update_flags(e.id);
  list.manage();
  stats.tiles = list.size();
  return stats;
}

}  // namespace meniscus::sim::levelset
