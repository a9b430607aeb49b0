#include "engine/app/pass_settings.h"

#include "engine/app/data_path.h"
#include "engine/core/error.h"

namespace meniscus {

std::vector<StageFacts> check_scene_settings(const Scene& scene) {
  std::vector<StageFacts> stages = check_stages(scene);
  read_particles_settings(scene);
  read_surface_settings(scene, stages);
  read_fluid_settings(scene, stages);
  read_split_settings(scene, stages);
  read_mip_settings(scene);
  return stages;
}

std::optional<SurfaceConfig> read_surface_settings(const Scene& scene, std::span<const StageFacts> stages) {
  if (!scene.passes.count("surface")) return std::nullopt;
  const ParamTable t = scene.pass("surface");
  SurfaceConfig config;
  // "stage:<name>" draws a level-set stage; anything else names a volume.
  const std::string volume = t.required_string("volume");
  if (volume.starts_with("stage:"))
    config.stage = find_stage(t, "volume", volume, stages, sim::StageOutput::LevelSet);
  else
    config.volume = resolve_data_path(t, "volume", volume);
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
  if (t.has("preview")) {
    const ParamTable p = t.table("preview");
    if (config.stage) p.fail("wavelet", "a wavelet preview draws a volume's surface, not a level set's");
    SurfacePreviewSettings preview;
    const std::string wavelet = p.string("wavelet", "9/7", {"haar", "5/3", "9/7", "dd97", "dd137"});
    preview.wavelet = sim::wavelet::parse_wavelet(wavelet);
    preview.levels = int(p.integer("levels", preview.levels, 1, 16));
    preview.frames_per_level = int(p.integer("frames_per_level", preview.frames_per_level, 0, 1'000'000));
    p.finish();
    config.preview = preview;
  }
  t.finish();
  return config;
}

std::optional<FluidConfig> read_fluid_settings(const Scene& scene, std::span<const StageFacts> stages) {
  if (!scene.passes.count("fluid")) return std::nullopt;
  const ParamTable t = scene.pass("fluid");
  FluidConfig config;
  if (t.has("stage")) config.stage = find_stage(t, "stage", t.string("stage", ""), stages, sim::StageOutput::Particles);
  passes::FluidSettings& s = config.settings;
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
  return config;
}

std::optional<SplitConfig> read_split_settings(const Scene& scene, std::span<const StageFacts> stages) {
  if (!scene.passes.count("split")) return std::nullopt;
  const ParamTable t = scene.pass("split");
  SplitConfig split;
  // Either side may draw any kind of stage.
  const auto side = [&](const char* key) { return find_stage(t, key, t.required_string(key), stages, std::nullopt); };
  split.left = side("left");
  split.right = side("right");
  if (split.left == split.right) t.fail("right", "left and right name the same stage");
  split.divider = float(t.number("divider", split.divider, 0.0, 1.0));
  t.finish();
  return split;
}

std::optional<MipConfig> read_mip_settings(const Scene& scene) {
  if (!scene.passes.count("mip")) return std::nullopt;
  const ParamTable t = scene.pass("mip");
  MipConfig config;
  config.volume = resolve_data_path(t, "volume", t.required_string("volume"));
  passes::MipSettings& s = config.settings;
  s.method = *passes::mip_method_from_name(t.string("method", "multiresolution", {"ray_cast", "multiresolution", "streaming"}));
  s.axis = *sim::mip::view_axis_from_name(t.string("view_axis", "y", {"x", "y", "z"}));
  s.yaw_degrees = float(t.number("yaw_degrees", s.yaw_degrees, -360.0, 360.0));
  s.pitch_degrees = float(t.number("pitch_degrees", s.pitch_degrees, -90.0, 90.0));
  if (s.method != passes::MipMethod::RayCast && (s.yaw_degrees != 0.0f || s.pitch_degrees != 0.0f))
    t.fail(s.yaw_degrees != 0.0f ? "yaw_degrees" : "pitch_degrees",
           "the pyramid MIPs are exact only along a volume axis: turning the view needs method = \"ray_cast\"");
  s.levels = uint32_t(t.integer("levels", s.levels, 0, sim::mip::kMaxPyramidLevels));
  s.budget = t.number("budget", s.budget, 0.0, 1.0);
  s.refine_block = uint32_t(t.integer("refine_block", s.refine_block, 0, 1 << 30));
  s.error_bound = t.number("error_bound", s.error_bound, 0.0, 1.0);
  if ((s.refine_block > 0 || s.error_bound > 0.0) && s.method != passes::MipMethod::Streaming)
    t.fail(s.refine_block > 0 ? "refine_block" : "error_bound", "progressive refinement needs method = \"streaming\"");
  if (t.has("window_level")) s.window_level = float(t.number("window_level", 0.0, -1e9, 1e9));
  if (t.has("window_width")) s.window_width = float(t.number("window_width", 1.0, 1e-6, 1e9));
  s.flip_vertical = t.boolean("flip_vertical", s.flip_vertical);
  t.finish();
  return config;
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
