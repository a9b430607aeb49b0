// The particle level set's parameters: their checks, the constants both backends derive from
// them, the grid margin and the smoothing steps' evolution.
#include <algorithm>
#include <cmath>
#include <string>

#include "engine/core/error.h"
#include "sim/levelset/particle_level_set.h"
#include "sim/levelset/tile_key.h"

namespace meniscus::sim::levelset {
namespace {

[[noreturn]] void bad(const std::string& field, const std::string& why) {
  throw InputError("particle level set: " + field + " " + why);
}

bool positive(float v) { return std::isfinite(v) && v > 0.0f; }

// Tiles [t - below, t + above] hold every voxel within `reach` of a voxel of tile t: a voxel in
// [4t, 4t + 3] reaches (4t - reach, 4t + 3 + reach).
int rings_below(float reach) { return int(std::ceil(reach / 4.0f)); }
int rings_above(float reach) { return int(std::floor((3.0f + reach) / 4.0f)); }

}  // namespace

particle_grid::GridShape particle_grid_shape(const ParticleLevelSetParams& p) {
  if (!positive(p.voxel_size)) bad("voxel_size", "must be a positive length in metres");
  if (!std::isfinite(p.origin.x) || !std::isfinite(p.origin.y) || !std::isfinite(p.origin.z)) bad("origin", "must be finite");
  if (p.voxels.x <= 0 || p.voxels.y <= 0 || p.voxels.z <= 0) bad("voxels", "must be positive along every axis");
  if (!positive(p.particle_radius)) bad("particle_radius", "must be a positive length in metres");
  // Below one spacing the kernel holds too few particles for a mean, and R − r̄ (φ0 beyond the
  // kernel) would not be positive.
  if (!(std::isfinite(p.kernel_radius) && p.kernel_radius >= 1.0f)) bad("kernel_radius", "must be at least 1 particle spacing");
  if (!(std::isfinite(p.gamma) && p.gamma >= 1.0f && p.gamma <= 64.0f)) bad("gamma", "must be in [1, 64] voxels");
  if (p.smoothing_steps < 0) bad("smoothing_steps", "must be >= 0");
  if (p.smoothing_steps > 0 && !positive(p.smoothing_alpha)) bad("smoothing_alpha", "must be positive");

  particle_grid::GridShape g{};
  g.origin[0] = p.origin.x;
  g.origin[1] = p.origin.y;
  g.origin[2] = p.origin.z;
  g.inverse_voxel = 1.0f / p.voxel_size;
  for (int a = 0; a < 3; ++a) g.tiles[a] = (p.voxels[a] + kTileSide - 1) / kTileSide;
  const TileCoord last{g.tiles[0] - 1, g.tiles[1] - 1, g.tiles[2] - 1};
  if (!representable(last)) {
    require_representable(last, "particle level set: voxels");  // throws, naming the key range
  }
  const uint64_t tiles = uint64_t(g.tiles[0]) * uint64_t(g.tiles[1]) * uint64_t(g.tiles[2]);
  if (tiles > kMaxParticleGridTiles)
    bad("voxels", "give " + std::to_string(tiles) + " tiles; at most " + std::to_string(kMaxParticleGridTiles) +
                      " (coarser voxel_size or a smaller grid)");

  g.radius = p.particle_radius * g.inverse_voxel;
  g.kernel_radius = p.kernel_radius * 2.0f * p.particle_radius * g.inverse_voxel;
  if (!std::isfinite(g.kernel_radius) || g.kernel_radius > 64.0f)
    bad("kernel_radius", "spans " + std::to_string(g.kernel_radius) + " voxels; at most 64 (coarser voxel_size)");
  g.inverse_kernel_radius_squared = float(1.0 / (double(g.kernel_radius) * double(g.kernel_radius)));
  g.outside = g.kernel_radius - g.radius;
  g.gamma = p.gamma;
  g.cap = p.gamma + 1.0f;
  g.evaluate_reach = g.kernel_radius + 1.0f;
  g.member_reach = g.kernel_radius + 1.0f + g.cap;
  g.cells_below = rings_below(g.kernel_radius);
  g.cells_above = rings_above(g.kernel_radius);
  g.near_reach = std::max(rings_below(g.cap), rings_above(g.cap));
  // Information moves one voxel along an axis per Jacobi sweep, and a voxel within cap of the
  // interface is at most √3 cap such steps from its seeds.
  g.sweeps = int(std::ceil(std::sqrt(3.0f) * g.cap)) + 1;
  return g;
}

int particle_grid_margin(const ParticleLevelSetParams& params) {
  const particle_grid::GridShape g = particle_grid_shape(params);
  // The marked reach, and one tile for the closure tiles manage() adds around the band.
  return int(std::ceil(g.member_reach)) + kTileSide;
}

void fit_particle_grid(ParticleLevelSetParams& params, glm::vec3 lo, glm::vec3 hi) {
  params.origin = lo;
  params.voxels = glm::ivec3(1);  // a valid grid, so the margin can be derived
  const int margin = particle_grid_margin(params);
  params.origin = lo - float(margin) * params.voxel_size;
  params.voxels = glm::ivec3(glm::ceil(glm::max(hi - lo, glm::vec3(0.0f)) / params.voxel_size)) + 2 * margin + 1;
  particle_grid_shape(params);  // the fitted grid must fit the keys too
}

GpuEvolutionParams smoothing_evolution(const ParticleLevelSetParams& params) {
  GpuEvolutionParams e;
  // Curvature alone reads central differences; the first-order scheme makes the step forward
  // Euler, one rate evaluation a step.
  e.scheme = Scheme::kUpwind;
  e.alpha = params.smoothing_steps > 0 ? params.smoothing_alpha : 0.0f;
  e.cfl = 0.5f;
  return e;
}

}  // namespace meniscus::sim::levelset
