#include "engine/app/stage_factory.h"

#include "engine/app/data_path.h"
#include "engine/core/error.h"
#include "engine/app/levelset_stage.h"
#include "engine/app/sph_settings.h"
#include "sim/ballistic/ballistic_stage.h"
#include "sim/sph/sph_stage.h"

namespace meniscus {
namespace {

sim::BallisticParams read_ballistic(const ParamTable& t, const Scene& scene) {
  sim::BallisticParams p;
  p.count = static_cast<uint32_t>(t.integer("count", p.count, 1, 10'000'000));
  p.seed = static_cast<uint64_t>(t.integer("seed", int64_t(p.seed), 0, INT64_MAX));
  read_vec3(t, "emitter_center", p.emitter_center);
  p.emitter_radius = float(t.number("emitter_radius", p.emitter_radius, 0.0, 1e6));
  p.speed_min = float(t.number("speed_min", p.speed_min, 0.0, 1e5));
  p.speed_max = float(t.number("speed_max", p.speed_max, 0.0, 1e5));
  if (p.speed_max < p.speed_min) t.fail("speed_max", "must be >= speed_min (" + std::to_string(p.speed_min) + ")");
  p.spread_degrees = float(t.number("spread_degrees", p.spread_degrees, 0.0, 180.0));
  read_vec3(t, "gravity", p.gravity);
  p.restitution = float(t.number("restitution", p.restitution, 0.0, 1.0));
  p.friction = float(t.number("friction", p.friction, 0.0, 1.0));
  p.particle_lifetime = float(t.number("particle_lifetime", p.particle_lifetime, 1e-3, 1e6));
  p.fixed_dt = float(t.number("fixed_dt", p.fixed_dt, 1e-6, 1.0));
  if (p.particle_lifetime / p.fixed_dt > 1e6f) t.fail("fixed_dt", "too small for particle_lifetime (over 1e6 steps)");
  p.ground_height = scene.environment.ground_height;
  t.finish();
  return p;
}

}  // namespace

std::unique_ptr<sim::ParticleStage> make_particle_stage(const StageConfig& config, const Scene& scene,
                                                        sim::SimBackend backend, const Context& context) {
  if (config.type == "ballistic") return sim::make_ballistic_stage(read_ballistic(config.params, scene), backend, context);
  if (config.type == "sph") return sim::make_sph_stage(read_sph_settings(config.params), backend, context);
  config.params.fail("type", "unknown stage type \"" + config.type + "\" (known: \"ballistic\", \"sph\")");
}

void check_scene_settings(const Scene& scene) {
  for (const StageConfig& config : scene.stages) {
    if (config.type == "ballistic") read_ballistic(config.params, scene);
    else if (config.type == "sph") read_sph_settings(config.params);
    else if (config.type == "levelset") read_levelset_settings(config.params, scene);
    else config.params.fail("type", "unknown stage type \"" + config.type + "\" (known: \"ballistic\", \"sph\", \"levelset\")");
  }
  read_particles_settings(scene);
  read_surface_settings(scene);
  read_fluid_settings(scene);
}

std::optional<SurfaceConfig> read_surface_settings(const Scene& scene) {
  if (!scene.passes.count("surface")) return std::nullopt;
  const ParamTable t = scene.pass("surface");
  SurfaceConfig config;
  // "stage:levelset" draws the scene's level-set stage; anything else names a volume.
  const std::string volume = t.required_string("volume");
  config.volume = volume.starts_with("stage:") ? volume : resolve_data_path(volume, scene.source);
  if (config.volume.starts_with("stage:") && config.volume != "stage:levelset")
    t.fail("volume", "\"" + volume + "\": the only stage that makes a volume is \"stage:levelset\"");
  config.settings.size = float(t.number("size", config.settings.size, 1e-4, 1e6));
  config.settings.position = t.vec3("position", config.settings.position);
  config.settings.up_axis = t.string("up_axis", config.settings.up_axis, {"y", "z", "-z"});
  for (const ParamTable& layer_table : t.array_of_tables("layer")) {
    passes::SurfaceLayer layer;
    layer.name = layer_table.required_string("name");
    if (layer.name.empty() || layer.name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") != std::string::npos)
      layer_table.fail("name", "expected a lower-case identifier, got \"" + layer.name + "\"");
    for (const auto& other : config.settings.layers)
      if (other.name == layer.name) layer_table.fail("name", "two layers are named \"" + layer.name + "\"");
    layer.iso = float(layer_table.required_number("iso"));
    layer.color = layer_table.color("color", layer.color);
    layer.opacity = float(layer_table.number("opacity", layer.opacity, 0.0, 1.0));
    layer_table.finish();
    config.settings.layers.push_back(layer);
  }
  if (config.settings.layers.empty()) t.fail("layer", "at least one [[pass.surface.layer]] is required");
  t.finish();
  return config;
}

std::optional<passes::FluidSettings> read_fluid_settings(const Scene& scene) {
  if (!scene.passes.count("fluid")) return std::nullopt;
  const ParamTable t = scene.pass("fluid");
  passes::FluidSettings s;
  s.radius = float(t.number("radius", s.radius, 1e-5, 1e4));
  s.spray_density = float(t.number("spray_density", s.spray_density, 0.0, 1e9));
  s.filter = *passes::fluid_filter_from_name(
      t.string("filter", "curvature_flow", {"curvature_flow", "bilateral", "narrow_range"}));
  if (t.has("iterations")) s.iterations = uint32_t(t.integer("iterations", 0, 0, 10'000));
  s.time_step = float(t.number("time_step", s.time_step, 1e-4, 1.0));
  const std::string resolution = t.string("resolution", "full", {"full", "half", "quarter"});
  s.resolution_divisor = resolution == "quarter" ? 4 : resolution == "half" ? 2 : 1;
  s.foam = t.boolean("foam", s.foam);
  s.debug_view = *passes::fluid_debug_view_from_name(
      t.string("debug_view", "none", {"none", "depth", "thickness", "curvature", "noise"}));
  s.edge_threshold = float(t.number("edge_threshold", s.edge_threshold, 0.1, 100.0));
  s.filter_sigma = float(t.number("filter_sigma", s.filter_sigma, 0.1, 20.0));
  s.fluid_color = t.color("color", s.fluid_color);
  s.absorption = t.color("absorption", s.absorption);
  s.refraction = float(t.number("refraction", s.refraction, 0.0, 10.0));
  s.specular = float(t.number("specular", s.specular, 0.0, 100.0));
  s.shininess = float(t.number("shininess", s.shininess, 1.0, 1e4));
  s.noise_amplitude = float(t.number("noise_amplitude", s.noise_amplitude, 0.0, 100.0));
  s.agitation_threshold = float(t.number("agitation_threshold", s.agitation_threshold, 1e-4, 1e4));
  s.agitation_boost = float(t.number("agitation_boost", s.agitation_boost, 0.0, 100.0));
  s.foam_color = t.color("foam_color", s.foam_color);
  s.spray_color = t.color("spray_color", s.spray_color);
  t.finish();
  return s;
}

void check_fluid_debug_flag(const Scene& scene, const std::optional<passes::FluidDebugView>& view) {
  if (view && !scene.passes.count("fluid"))
    throw InputError(scene.source.string() + ": --fluid-debug needs a [pass.fluid] table in the scene");
}

passes::ParticlesSettings read_particles_settings(const Scene& scene) {
  const ParamTable t = scene.pass("particles");
  passes::ParticlesSettings s;
  s.radius = float(t.number("radius", s.radius, 1e-5, 1e4));
  s.color = t.color("color", s.color);
  s.speed_tint = float(t.number("speed_tint", s.speed_tint, 0.0, 1.0));
  s.speed_scale = float(t.number("speed_scale", s.speed_scale, 1e-4, 1e6));
  t.finish();
  return s;
}

}  // namespace meniscus
