#include "sim/raytrace/caustics_pool.h"

#include <chrono>
#include <cmath>
#include <string>

#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

#include "engine/core/error.h"
#include "sim/kdtree/triangle_kdtree.h"
#include "sim/photon/caustic_image.h"
#include "sim/photon/caustic_photons.h"
#include "sim/photon/water_block.h"

namespace meniscus::sim::raytrace {
namespace {

using Clock = std::chrono::steady_clock;

constexpr float kHalfSide = 1.0f;       // the pool is [-1, 1] x [-1, 1] m
constexpr float kFloorGap = 0.005f;     // the floor just under the water's bottom face
constexpr float kCausticReach = 1.6f;   // the caustic is estimated over [-1.6, 1.6]^2: the pool and its shadow

double ms_since(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }

void require(bool ok, const char* field, const std::string& expected) {
  if (!ok) throw InputError(std::string("caustics pool: ") + field + " must be " + expected);
}

// Two crossing swells and a fast ripple, moving with time: every triangle of the top moves.
float wave(const PoolParams& p, float x, float z, float t) {
  return p.depth + p.wave_height * (std::sin(6.0f * x + 3.0f * t) * std::cos(5.0f * z - 2.0f * t) +
                                    0.375f * std::sin(23.0f * (x + z) + 7.0f * t));
}

glm::vec3 towards_sun(const PoolParams& p) {
  const float elevation = glm::radians(p.sun_elevation_degrees), azimuth = glm::radians(p.sun_azimuth_degrees);
  return {std::cos(elevation) * std::cos(azimuth), std::sin(elevation), std::cos(elevation) * std::sin(azimuth)};
}

// Parallel photons from a rectangle above the water, shifted towards the sun so that all of
// them head for the pool (and a margin around it, which catches the light past the walls).
photon::Sun pool_sun(const PoolParams& p, const glm::vec3& to_sun) {
  photon::Sun sun;
  sun.direction = -to_sun;
  sun.emit_y = p.depth + 4.0f * p.wave_height + 0.5f;
  const float rise = sun.emit_y - p.depth;
  const glm::vec2 shift = glm::vec2(to_sun.x, to_sun.z) / to_sun.y * rise;
  const float reach = kHalfSide + 0.1f;
  sun.emit_min = shift - glm::vec2(reach);
  sun.emit_max = shift + glm::vec2(reach);
  // Irradiance across the beam, in units of the sun's: the tracer scales the floor's by cos.
  sun.irradiance = 1.0f;
  return sun;
}

}  // namespace

void PoolParams::validate() const {
  require(grid >= 2 && grid <= 2048, "grid", "in [2, 2048]");
  require(depth >= 0.05f && depth <= 10.0f, "depth", "in [0.05, 10] m");
  require(wave_height >= 0.0f && wave_height <= 0.2f * depth, "wave_height", "in [0, depth / 5]");
  require(std::isfinite(wave_speed) && wave_speed >= 0.0f && wave_speed <= 100.0f, "wave_speed", "in [0, 100]");
  require(sun_elevation_degrees >= 10.0f && sun_elevation_degrees <= 90.0f, "sun_elevation_degrees", "in [10, 90]");
  require(std::isfinite(sun_azimuth_degrees), "sun_azimuth_degrees", "finite");
  require(photons >= 1000 && photons <= 20'000'000, "photons", "in [1000, 20000000]");
  require(photon_neighbours >= 1 && photon_neighbours <= 1024, "photon_neighbours", "in [1, 1024]");
  require(caustic_resolution >= 8 && caustic_resolution <= 2048, "caustic_resolution", "in [8, 2048]");
  require(trace.width >= 1 && trace.width <= 8192 && trace.height >= 1 && trace.height <= 8192, "trace size",
          "1..8192 pixels per side");
  require(trace.max_bounces <= 8, "bounces", "at most 8");
}

PoolFrame render_pool(const PoolParams& params, double time) {
  params.validate();
  PoolFrame frame;
  const float t = float(time) * params.wave_speed;

  auto start = Clock::now();
  const photon::TriangleSoup water =
      photon::water_block(params.grid, glm::vec2(-kHalfSide), glm::vec2(kHalfSide), 0.0f,
                          [&](float x, float z) { return wave(params, x, z, t); });
  frame.stats.mesh_ms = ms_since(start);
  frame.stats.triangles = uint32_t(water.indices.size() / 3);

  const kdtree::TriangleKdTree tree = kdtree::build_triangle_kdtree(water.vertices, water.indices);
  frame.stats.build_ms = tree.stats.build_ms;
  frame.stats.sah_cost = tree.stats.sah_cost;

  TraceScene scene;
  const KdTreeIntersector surface(tree, water.vertices, water.indices);
  scene.surface = &surface;
  scene.vertices = water.vertices;
  scene.indices = water.indices;
  scene.floor_y = -kFloorGap;
  scene.floor_tile = 0.25f;
  scene.to_sun = towards_sun(params);

  start = Clock::now();
  const photon::CausticPhotons photons = photon::trace_caustic_photons(
      {water.vertices, water.indices, &tree, scene.ior}, pool_sun(params, scene.to_sun), scene.floor_y,
      {.photons = params.photons});
  frame.stats.photon_ms = ms_since(start);
  frame.stats.photons_stored = photons.stored;

  start = Clock::now();
  const photon::FloorGrid grid{glm::vec2(-kCausticReach), glm::vec2(kCausticReach), scene.floor_y,
                               params.caustic_resolution, params.caustic_resolution};
  const photon::CausticImage caustics = photon::estimate_caustics(photons, grid, params.photon_neighbours);
  frame.stats.caustic_ms = ms_since(start);
  scene.caustics = &caustics;

  frame.image = trace_image(scene, params.camera, params.trace);
  frame.stats.trace_ms = frame.image.stats.ms;
  return frame;
}

}  // namespace meniscus::sim::raytrace
