#include "engine/app/sph_settings.h"

#include <string>

#include "engine/core/error.h"
#include "engine/core/input_limits.h"

namespace meniscus {
namespace {

void required_vec3(const ParamTable& t, const char* key, float out[3]) {
  if (!t.has(key)) t.fail(key, "is required");
  read_vec3(t, key, out);
}

sim::SphBox read_box(const ParamTable& t) {
  sim::SphBox box;
  required_vec3(t, "min", box.min);
  required_vec3(t, "max", box.max);
  for (int a = 0; a < 3; ++a)
    if (box.max[a] <= box.min[a]) t.fail("max", "must exceed min on every axis");
  return box;
}

}  // namespace

sim::SphParams read_sph_settings(const ParamTable& t) {
  sim::SphParams p;
  p.particle_radius = float(t.number("particle_radius", p.particle_radius, 1e-5, 10.0));
  p.rest_density = float(t.number("rest_density", p.rest_density, 1e-3, 1e6));
  p.particle_volume = float(t.number("particle_volume", p.particle_volume, 0.0, 1.5));
  if (!sim::SphParams::particle_volume_allowed(p.particle_volume))
    t.fail("particle_volume", std::string("must be ") + sim::SphParams::kParticleVolumeRule);
  p.viscosity = float(t.number("viscosity", p.viscosity, 0.0, 1e3));
  p.boundary_viscosity = float(t.number("wall_friction", p.boundary_viscosity, 0.0, 1e3));
  p.surface_tension = float(t.number("surface_tension", p.surface_tension, 0.0, 1e3));
  read_vec3(t, "gravity", p.gravity);
  required_vec3(t, "domain_min", p.domain.min);
  required_vec3(t, "domain_max", p.domain.max);
  for (int a = 0; a < 3; ++a)
    if (p.domain.max[a] <= p.domain.min[a]) t.fail("domain_max", "must exceed domain_min on every axis");
  p.adaptive = t.string("time_step", "adaptive", {"adaptive", "fixed"}) == "adaptive";
  p.cfl = float(t.number("cfl", p.cfl, 1e-3, 1.0));
  p.max_dt = float(t.number("max_dt", p.max_dt, 1e-7, 1.0));
  p.min_dt = float(t.number("min_dt", p.min_dt, 1e-9, 1.0));
  if (p.min_dt > p.max_dt) t.fail("min_dt", "must be <= max_dt (" + limits::number_text(p.max_dt) + ")");
  p.fixed_dt = float(t.number("fixed_dt", p.fixed_dt, 1e-7, 1.0));
  p.density_tolerance = float(t.number("density_tolerance", p.density_tolerance, 1e-7, 0.1));
  p.divergence_tolerance = float(t.number("divergence_tolerance", p.divergence_tolerance, 1e-7, 1.0));
  p.max_iterations = int(t.integer("max_iterations", p.max_iterations, 2, 10000));
  p.divergence_solve = t.boolean("divergence_solve", p.divergence_solve);
  p.seed = uint64_t(t.integer("seed", int64_t(p.seed), 0, INT64_MAX));
  p.capacity = uint32_t(t.integer("capacity", 0, 0, sim::SphParams::kMaxParticles));

  for (const ParamTable& f : t.array_of_tables("fill")) {
    sim::SphFill fill;
    fill.box = read_box(f);
    read_vec3(f, "velocity", fill.velocity);
    f.finish();
    p.fills.push_back(fill);
  }
  for (const ParamTable& b : t.array_of_tables("box")) {
    p.boxes.push_back({read_box(b)});
    b.finish();
  }
  for (const ParamTable& pl : t.array_of_tables("plane")) {
    sim::SphPlane plane;
    required_vec3(pl, "point", plane.point);
    const glm::vec3 n = pl.direction("normal", {0, 1, 0});
    plane.normal[0] = n.x, plane.normal[1] = n.y, plane.normal[2] = n.z;
    pl.finish();
    p.planes.push_back(plane);
  }
  for (const ParamTable& e : t.array_of_tables("emitter")) {
    sim::SphEmitter emitter;
    required_vec3(e, "center", emitter.center);
    const glm::vec3 n = e.direction("direction", {1, 0, 0});
    emitter.direction[0] = n.x, emitter.direction[1] = n.y, emitter.direction[2] = n.z;
    emitter.radius = float(e.required_number("radius", 1e-5, 100.0));
    emitter.speed = float(e.required_number("speed", 1e-4, 1e3));
    emitter.start = float(e.number("start", emitter.start, 0.0, 1e6));
    emitter.stop = float(e.number("stop", 1e30, 0.0, 1e30));
    if (emitter.stop <= emitter.start) e.fail("stop", "must be after start");
    e.finish();
    p.emitters.push_back(emitter);
  }
  for (const ParamTable& s : t.array_of_tables("sink")) {
    p.sinks.push_back({read_box(s)});
    s.finish();
  }
  t.finish();
  // The remaining checks relate fields to each other (fills inside the domain, capacity):
  // SphParams words them; the scene file and table locate them.
  try {
    p.validate();
  } catch (const InputError& error) {
    t.fail("type", std::string("invalid \"sph\" stage: ") + error.what());
  }
  return p;
}

}  // namespace meniscus
