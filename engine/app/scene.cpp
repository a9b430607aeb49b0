#include "engine/app/scene.h"

#include <sstream>

namespace meniscus {
namespace {

RenderSettings read_render(const ParamTable& t) {
  RenderSettings r;
  r.width = static_cast<uint32_t>(t.integer("width", r.width, 16, 16384));
  r.height = static_cast<uint32_t>(t.integer("height", r.height, 16, 16384));
  r.frames_in_flight = static_cast<uint32_t>(t.integer("frames_in_flight", r.frames_in_flight, 1, 4));
  r.exposure = static_cast<float>(t.number("exposure", r.exposure, 1e-4, 1e4));
  t.finish();
  return r;
}

CameraSettings read_camera(const ParamTable& t) {
  CameraSettings c;
  c.mode = t.string("mode", c.mode, {"orbit", "fly"});
  c.target = t.vec3("target", c.target);
  c.distance = static_cast<float>(t.number("distance", c.distance, 1e-3, 1e6));
  c.yaw_degrees = static_cast<float>(t.number("yaw_degrees", c.yaw_degrees, -360.0, 360.0));
  c.pitch_degrees = static_cast<float>(t.number("pitch_degrees", c.pitch_degrees, -89.0, 89.0));
  c.fov_y_degrees = static_cast<float>(t.number("fov_y_degrees", c.fov_y_degrees, 1.0, 179.0));
  c.near = static_cast<float>(t.number("near", c.near, 1e-5, 1e6));
  c.far = static_cast<float>(t.number("far", c.far, 1e-4, 1e7));
  if (c.far <= c.near) {
    std::ostringstream message;
    message << "expected a number greater than near (" << c.near << "), got " << c.far;
    t.fail("far", message.str());
  }
  c.move_speed = static_cast<float>(t.number("move_speed", c.move_speed, 1e-4, 1e6));
  t.finish();
  return c;
}

EnvironmentSettings read_environment(const ParamTable& t) {
  EnvironmentSettings e;
  e.sun_direction = t.direction("sun_direction", e.sun_direction);
  e.sun_color = t.color("sun_color", e.sun_color);
  e.sun_intensity = static_cast<float>(t.number("sun_intensity", e.sun_intensity, 0.0, 1e4));
  e.sky_zenith = t.color("sky_zenith", e.sky_zenith);
  e.sky_horizon = t.color("sky_horizon", e.sky_horizon);
  e.ground = t.boolean("ground", e.ground);
  e.ground_height = static_cast<float>(t.number("ground_height", e.ground_height));
  e.ground_color_a = t.color("ground_color_a", e.ground_color_a);
  e.ground_color_b = t.color("ground_color_b", e.ground_color_b);
  e.ground_tile_size = static_cast<float>(t.number("ground_tile_size", e.ground_tile_size, 1e-4, 1e6));
  e.sky_cubemap_size = static_cast<uint32_t>(t.integer("sky_cubemap_size", e.sky_cubemap_size, 16, 4096));
  t.finish();
  return e;
}

}  // namespace

ParamTable Scene::pass(const std::string& name) const {
  auto it = passes.find(name);
  return it != passes.end() ? it->second : pass_section.table(name);
}

Scene load_scene(const std::filesystem::path& file) {
  const ParamTable root = parse_toml_file(file);
  Scene scene;
  scene.source = file;
  scene.name = root.required_string("name");
  scene.description = root.string("description", "");
  scene.render = read_render(root.table("render"));
  scene.camera = read_camera(root.table("camera"));
  scene.environment = read_environment(root.table("environment"));
  for (ParamTable& stage : root.array_of_tables("stage")) {
    std::string type = stage.required_string("type");
    // Passes and other stages name a stage by this; pass and resource names carry it.
    std::string name = stage.string("name", type);
    if (name.empty() || name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") != std::string::npos)
      stage.fail("name", "expected a lower-case identifier (a-z, 0-9, _), got \"" + name + "\"");
    for (const StageConfig& other : scene.stages)
      if (other.name == name)
        stage.fail(stage.has("name") ? "name" : "type", "two stages are named \"" + name + "\" (give each a distinct `name`)");
    scene.stages.push_back({std::move(type), std::move(name), std::move(stage)});
  }
  scene.pass_section = root.table("pass");
  for (const std::string& name : scene.pass_section.keys()) scene.passes.emplace(name, scene.pass_section.table(name));
  root.finish();
  return scene;
}

}  // namespace meniscus
