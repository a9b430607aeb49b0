#include "sim/levelset/evolution.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "sim/levelset/advection_rows.h"
#include "sim/levelset/closest_point.h"
#include "sim/levelset/curvature.h"
#include "sim/levelset/halo_block.h"

namespace meniscus::sim::levelset {

namespace {

EvolutionParams validated(EvolutionParams params) {
  if (!(params.cfl > 0.0f && params.cfl <= 1.0f)) throw std::invalid_argument("LevelSetEvolution: cfl must be in (0, 1]");
  if (params.alpha < 0.0f) throw std::invalid_argument("LevelSetEvolution: alpha must be >= 0");
  require_valid(params.reinit, "LevelSetEvolution");
  return params;
}

}  // namespace

LevelSetEvolution::LevelSetEvolution(EvolutionParams params) : params_(validated(std::move(params))) {}

void LevelSetEvolution::set_params(EvolutionParams params) { params_ = validated(std::move(params)); }

float LevelSetEvolution::rate(const SortedTileList& list, float t, std::vector<float>& out) {
  const auto& active = list.active();
  tile_speed_.assign(active.size(), 0.0f);
  tile_front_speed_.assign(active.size(), 0.0f);
  tile_front_curvature_.assign(active.size(), 0.0f);
  const EvolutionParams& p = params_;
  const float sqrt3 = std::sqrt(3.0f);
  const int reach = stencil_reach(p.scheme);
  // Only the normal-speed and rescaling terms need both one-sided sides (Godunov); advection
  // alone takes the upwind side per axis and skips the other half of the WENO work.
  const bool godunov = p.normal_speed || p.threshold.volume || p.rescaling_speed;
#if defined(MENISCUS_HAS_FLOAT4)
  // Pure WENO5 advection (the Enright test, a brush's drag) four voxels at a time.
  const bool advection_rows = p.velocity && p.scheme == Scheme::kWeno5 && !godunov && !(p.alpha > 0);
#endif
  if (p.evolves) std::fill(out.begin(), out.end(), 0.0f);  // the tiles not visited keep their values
  for_each_halo_block(list, [&](size_t position, uint32_t, const float* block) {
    const TileCoord tile = coord_of(active[position].key);
    const glm::vec3 origin(tile.x * kTileSide, tile.y * kTileSide, tile.z * kTileSide);
    float* r = out.data() + position * kTileVoxels;
#if defined(MENISCUS_HAS_FLOAT4)
    if (advection_rows) {
      tile_speed_[position] = advection_rate_rows(block, origin, t, list.gamma(), p.velocity, r);
      return;
    }
#endif
    float fastest = 0, front_fastest = 0, front_curving = 0;
    for (int z = 0; z < kTileSide; ++z)
      for (int y = 0; y < kTileSide; ++y)
        for (int x = 0; x < kTileSide; ++x) {
          const float* centre = block + halo_index(x, y, z);
          if (flat_beyond_band(centre, kHaloStrideY, kHaloStrideZ, reach, list.gamma())) {
            // The voxel cannot change, and skipping it spares the velocity field's evaluation
            // (half the band is such).
            r[SortedTileList::voxel_index(x, y, z)] = 0;
            continue;
          }
          const glm::vec3 voxel = origin + glm::vec3(x, y, z);
          const OneSidedGradient g = godunov ? one_sided_gradient(p.scheme, centre, kHaloStrideY, kHaloStrideZ)
                                             : OneSidedGradient{};
          float l = 0, speed = 0, stiffness = 0;
          if (p.normal_speed || p.threshold.volume) {
            const SpeedPoint point = speed_point(p.threshold, p.extend_normal_speed, voxel, centre, kHaloStrideY, kHaloStrideZ);
            const float f = p.threshold.volume ? point.threshold.speed : p.normal_speed(point.at);
            stiffness = point.threshold.stiffness;
            if (std::abs(centre[0]) <= 0.5f) front_fastest = std::max(front_fastest, std::abs(f));
            const GodunovNormal n = godunov_normal(g, f);
            l -= f * n.norm;
            speed += p.effective_normal_cfl ? n.cfl_speed : sqrt3 * std::abs(f);
          }
          if (p.velocity) {
            const glm::vec3 u = p.velocity(voxel, t);
            l -= glm::dot(u, godunov ? upwind_gradient(g, u)
                                     : upwind_gradient(p.scheme, centre, kHaloStrideY, kHaloStrideZ, u));
            speed += std::abs(u.x) + std::abs(u.y) + std::abs(u.z);
          }
          if (p.alpha > 0) {
            const float c = p.alpha * curvature_speed(centre, kHaloStrideY, kHaloStrideZ);
            l += c;
            if (std::abs(centre[0]) <= 0.5f) front_curving = std::max(front_curving, std::abs(c));
            speed += 6 * p.alpha;
          }
          if (p.rescaling_speed) {
            const float s = centre[0] / std::sqrt(centre[0] * centre[0] + 1.0f);
            const GodunovNormal n = godunov_normal(g, s);
            l += p.rescaling_weight * (s * (1.0f - n.norm));
            speed += p.rescaling_weight * (p.effective_normal_cfl ? n.cfl_speed : sqrt3);
          }
          r[SortedTileList::voxel_index(x, y, z)] = l;
          fastest = std::max(fastest, std::max(speed, stiffness));
        }
    tile_speed_[position] = fastest;
    tile_front_speed_[position] = front_fastest;
    tile_front_curvature_[position] = front_curving;
  }, reach, p.evolves);
  if (first_stage_) {
    front_speed_ = tile_front_speed_.empty() ? 0.0f : *std::max_element(tile_front_speed_.begin(), tile_front_speed_.end());
    front_curvature_ =
        tile_front_curvature_.empty() ? 0.0f : *std::max_element(tile_front_curvature_.begin(), tile_front_curvature_.end());
    first_stage_ = false;
  }
  return tile_speed_.empty() ? 0.0f : *std::max_element(tile_speed_.begin(), tile_speed_.end());
}

float LevelSetEvolution::step(SortedTileList& list, float t, float max_dt) {
  // A surface that has vanished has nothing left to move: the time passes (when bounded).
  float dt = std::isfinite(max_dt) ? max_dt : 0.0f;
  first_stage_ = true;
  front_speed_ = front_curvature_ = 0.0f;
  if (list.size()) {
    dt = integrator_.step(list, params_.scheme, t, params_.cfl, max_dt,
                          [this](const SortedTileList& l, float time, std::vector<float>& out) { return rate(l, time, out); });
  }
  if (++steps_ % params_.reinit.every == 0) reinitialiser_.run(list, params_.reinit);  // nothing on an empty list
  status_ = list.manage();
  return dt;
}

}  // namespace meniscus::sim::levelset
