#include "sim/raytrace/caustics_pool.h"

#include <cmath>
#include <string>

#include "engine/core/error.h"

namespace meniscus::sim::raytrace {
namespace {

constexpr float kHalfSide = 1.0f;  // the pool is [-1, 1] x [-1, 1] m

void require_pool(bool ok, const char* field, const std::string& expected) {
  if (!ok) throw InputError(std::string("caustics pool: ") + field + " must be " + expected);
}

// Two crossing swells and a fast ripple, moving with time.
float wave(const PoolParams& p, float x, float z, float t) {
  return p.depth + p.wave_height * (std::sin(6.0f * x + 3.0f * t) * std::cos(5.0f * z - 2.0f * t) +
                                    0.375f * std::sin(23.0f * (x + z) + 7.0f * t));
}

}  // namespace

void PoolParams::validate() const {
  require_pool(grid >= 2 && grid <= 2048, "grid", "in [2, 2048]");
  require_pool(depth >= 0.05f && depth <= 10.0f, "depth", "in [0.05, 10] m");
  require_pool(wave_height >= 0.0f && wave_height <= 0.2f * depth, "wave_height", "in [0, depth / 5]");
  require_pool(std::isfinite(wave_speed) && wave_speed >= 0.0f && wave_speed <= 100.0f, "wave_speed", "in [0, 100]");
  require_pool(glass_wall >= 0.0f && glass_wall <= 0.25f, "glass_wall", "in [0, 0.25] m");
  view.validate();
}

photon::OpticalMesh pool_scene(const PoolParams& params, double time) {
  params.validate();
  const float t = float(time) * params.wave_speed;
  photon::TriangleSoup water = photon::water_block(params.grid, glm::vec2(-kHalfSide), glm::vec2(kHalfSide), 0.0f,
                                                   [&](float x, float z) { return wave(params, x, z, t); });
  if (params.glass_wall == 0.0f) return {std::move(water), photon::kWaterInAir};
  // The waves reach 1.375 wave heights above the depth, at most 0.275 of it (validate).
  return photon::water_in_glass_tank(std::move(water), params.grid, glm::vec2(-kHalfSide), glm::vec2(kHalfSide),
                                     params.glass_wall, 1.3f * params.depth);
}

}  // namespace meniscus::sim::raytrace
