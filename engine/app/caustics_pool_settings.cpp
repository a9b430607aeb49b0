#include "engine/app/caustics_pool_settings.h"

#include <glm/geometric.hpp>

namespace meniscus {

sim::raytrace::PoolParams read_caustics_pool_settings(const ParamTable& t) {
  sim::raytrace::PoolParams p;
  p.grid = uint32_t(t.integer("grid", p.grid, 2, 2048));
  p.depth = float(t.number("depth", p.depth, 0.05, 10.0));
  p.wave_height = float(t.number("wave_height", p.wave_height, 0.0, 0.2 * p.depth));
  p.wave_speed = float(t.number("wave_speed", p.wave_speed, 0.0, 100.0));
  p.sun_elevation_degrees = float(t.number("sun_elevation_degrees", p.sun_elevation_degrees, 10.0, 90.0));
  p.sun_azimuth_degrees = float(t.number("sun_azimuth_degrees", p.sun_azimuth_degrees, -360.0, 360.0));
  p.photons = uint32_t(t.integer("photons", p.photons, 1000, 20'000'000));
  p.photon_neighbours = uint32_t(t.integer("photon_neighbours", p.photon_neighbours, 1, 1024));
  p.caustic_resolution = uint32_t(t.integer("caustic_resolution", p.caustic_resolution, 8, 2048));
  p.trace.width = uint32_t(t.integer("width", p.trace.width, 1, 8192));
  p.trace.height = uint32_t(t.integer("height", p.trace.height, 1, 8192));
  p.trace.max_bounces = uint32_t(t.integer("bounces", p.trace.max_bounces, 0, 8));
  p.camera.eye = t.vec3("eye", p.camera.eye);
  p.camera.target = t.vec3("target", p.camera.target);
  if (!(glm::length(p.camera.target - p.camera.eye) > 0.0f)) t.fail("target", "must differ from eye");
  p.camera.fov_y_degrees = float(t.number("fov_y_degrees", p.camera.fov_y_degrees, 1.0, 170.0));
  t.finish();
  return p;
}

}  // namespace meniscus
