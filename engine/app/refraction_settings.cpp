#include "engine/app/refraction_settings.h"

#include <glm/geometric.hpp>
#include <glm/vector_relational.hpp>

#include "engine/app/data_path.h"

namespace meniscus {
namespace {

// The keys both refraction stages share: the sun, the photons, the view and the traced image.
void read_view(const ParamTable& t, sim::raytrace::RefractionView& v) {
  v.sun_elevation_degrees = float(t.number("sun_elevation_degrees", v.sun_elevation_degrees, 10.0, 90.0));
  v.sun_azimuth_degrees = float(t.number("sun_azimuth_degrees", v.sun_azimuth_degrees, -360.0, 360.0));
  v.photons = uint32_t(t.integer("photons", v.photons, 1000, 20'000'000));
  v.photon_neighbours = uint32_t(t.integer("photon_neighbours", v.photon_neighbours, 1, 1024));
  v.caustic_resolution = uint32_t(t.integer("caustic_resolution", v.caustic_resolution, 8, 2048));
  v.floor_tile = float(t.number("floor_tile", v.floor_tile, 1e-3, 1e3));
  v.trace.width = uint32_t(t.integer("image_width", v.trace.width, 1, 8192));
  v.trace.height = uint32_t(t.integer("image_height", v.trace.height, 1, 8192));
  v.trace.max_bounces = uint32_t(t.integer("bounces", v.trace.max_bounces, 0, 8));
  v.trace.supersample = uint32_t(t.integer("supersample", v.trace.supersample, 1, 8));
  v.trace.min_weight = float(t.number("min_weight", v.trace.min_weight, 0.0, 1.0));
  if (sim::raytrace::primary_rays(v.trace) > sim::raytrace::kMaxPrimaryRays)
    t.fail("image_width", "image_width x image_height x supersample^2 is " +
                              std::to_string(sim::raytrace::primary_rays(v.trace)) + " primary rays a frame, at most " +
                              std::to_string(sim::raytrace::kMaxPrimaryRays));
  v.camera.eye = t.vec3("eye", v.camera.eye);
  v.camera.target = t.vec3("target", v.camera.target);
  if (!(glm::length(v.camera.target - v.camera.eye) > 0.0f)) t.fail("target", "must differ from eye");
  v.camera.fov_y_degrees = float(t.number("fov_y_degrees", v.camera.fov_y_degrees, 1.0, 170.0));
}

}  // namespace

sim::raytrace::PoolParams read_caustics_pool_settings(const ParamTable& t) {
  sim::raytrace::PoolParams p;
  p.grid = uint32_t(t.integer("grid", p.grid, 2, 2048));
  p.depth = float(t.number("depth", p.depth, 0.05, 10.0));
  p.wave_height = float(t.number("wave_height", p.wave_height, 0.0, 0.2 * p.depth));
  p.wave_speed = float(t.number("wave_speed", p.wave_speed, 0.0, 100.0));
  p.glass_wall = float(t.number("glass_wall", p.glass_wall, 0.0, 0.25));
  read_view(t, p.view);
  t.finish();
  return p;
}

RefractingSurfaceSettings read_refracting_surface_settings(const ParamTable& t) {
  RefractingSurfaceSettings s;
  t.string("level_set", "");  // the producer, which the stage registry resolves
  read_view(t, s.view);
  s.tank.wall = float(t.number("glass_wall", s.tank.wall, 0.0, 1.0));
  if (s.tank.wall > 0.0f) {  // the tank's inside, required with its wall
    for (const char* key : {"tank_min", "tank_max"})
      if (!t.has(key)) t.fail(key, "is required with glass_wall (the tank's inside, a corner [x, y, z])");
    s.tank.inner_min = t.vec3("tank_min", s.tank.inner_min);
    s.tank.inner_max = t.vec3("tank_max", s.tank.inner_max);
    if (!glm::all(glm::lessThan(s.tank.inner_min, s.tank.inner_max)))
      t.fail("tank_max", "must exceed tank_min on every axis");
  }
  t.finish();
  return s;
}

RefractingMeshSettings read_refracting_mesh_settings(const ParamTable& t) {
  RefractingMeshSettings s;
  s.mesh = resolve_data_path(t, "mesh", t.required_string("mesh"));
  s.params.height = float(t.number("height", s.params.height, 1e-3, 100.0));
  const std::string up = t.string("up_axis", "y", {"x", "y", "z"});
  s.params.up_axis = uint32_t(up[0] - 'x');
  s.params.spin_degrees_per_second =
      float(t.number("spin_degrees_per_second", s.params.spin_degrees_per_second, -3600.0, 3600.0));
  read_view(t, s.params.view);
  t.finish();
  return s;
}

}  // namespace meniscus
