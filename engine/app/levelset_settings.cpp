#include "engine/app/levelset_settings.h"

#include <cmath>

#include "engine/app/data_path.h"

namespace meniscus {

sim::levelset::LevelSetStageParams read_levelset_settings(const ParamTable& t, const Scene& /*scene*/,
                                                          const StageFacts* producer) {
  sim::levelset::LevelSetStageParams s;
  const int sources = int(t.has("mesh")) + int(t.has("points")) + int(t.has("enright")) + int(t.has("particles"));
  if (sources != 1)
    t.fail("mesh", "give exactly one of mesh (a closed surface), points (a cloud to reconstruct), enright (a "
                   "resolution) or particles (the name of a stage whose particles it is built from, every frame)");
  s.enright = int(t.integer("enright", 0, 16, 512));
  if (t.has("mesh")) s.mesh = resolve_data_path(t, "mesh", t.string("mesh", ""));
  if (t.has("points")) s.points = resolve_data_path(t, "points", t.string("points", ""));
  if (t.has("particles")) {
    t.string("particles", "");  // resolved by the registry into `producer`
    s.particles = true;
    if (!producer || !producer->bounds_min || producer->particle_radius <= 0.0f)
      t.fail("particles", "stage \"" + (producer ? producer->name : std::string()) +
                              "\" has no bounded domain and particle radius to build a level set in (an \"sph\" stage has)");
    s.grid_min = *producer->bounds_min;
    s.grid_max = *producer->bounds_max;
    s.particle_radius = producer->particle_radius;
    // One voxel per particle radius by default: two per particle spacing, as Zhu & Bridson.
    s.voxel_size = float(t.number("voxel_size", producer->particle_radius, 1e-5, 1e3));
    const glm::vec3 voxels = (s.grid_max - s.grid_min) / s.voxel_size;
    if (voxels.x * voxels.y * voxels.z > 4.0e9f)
      t.fail("voxel_size", "a grid of " + std::to_string(uint64_t(voxels.x)) + " x " + std::to_string(uint64_t(voxels.y)) +
                               " x " + std::to_string(uint64_t(voxels.z)) + " voxels over stage \"" + producer->name +
                               "\"'s domain is too fine (over 4e9 voxels)");
    s.kernel_radius = float(t.number("kernel_radius", s.kernel_radius, 1.0, 4.0));
  }
  s.start_depth = int(t.integer("start_depth", s.start_depth, 2, 13));
  s.depth = int(t.integer("depth", s.depth, s.start_depth, 13));
  s.resolution = int(t.integer("resolution", s.resolution, 16, 1024));
  s.margin = int(t.integer("margin", s.margin, 2, 256));
  s.mcf = float(t.number("mcf", s.mcf, 0.0, 100.0));
  s.speed = float(t.number("speed", s.speed, -100.0, 100.0));
  s.scheme = t.string("scheme", s.scheme, {"upwind", "weno5"});
  s.precision = *sim::levelset::parse_precision(t.string("precision", "float32", {"float32", "fixed16"}));
  s.steps_per_frame = int(t.integer("steps_per_frame", s.steps_per_frame, 0, 1000));
  // [[stage.stroke]]: scripted sculpting (sim/levelset/brush.h), in the level set's own units.
  for (const ParamTable& stroke : t.array_of_tables("stroke")) {
    if (s.particles) stroke.fail("at", "a level set rebuilt from particles every frame cannot be sculpted");
    sim::levelset::BrushStroke b;
    b.brush.at = stroke.vec3("at", glm::vec3(0.0f));
    if (!stroke.has("at")) stroke.fail("at", "a stroke needs its centre, at = [x, y, z]");
    b.brush.radius = float(stroke.required_number("radius", 1e-6, 1e6));
    b.brush.strength = float(stroke.required_number("strength", -1e3, 1e3));
    b.first_frame = int(stroke.integer("first_frame", 0, 0, 1'000'000));
    b.frames = int(stroke.integer("frames", 1, 1, 1'000'000));
    stroke.finish();
    s.strokes.push_back(b);
  }
  t.finish();
  return s;
}

}  // namespace meniscus
