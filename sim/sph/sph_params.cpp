#include "sim/sph/sph_params.h"

#include <cmath>
#include <string>

#include "engine/core/error.h"

namespace meniscus::sim {
namespace {

void require(bool ok, const std::string& field, const std::string& what) {
  if (!ok) throw InputError("sph." + field + ": " + what);
}

bool finite3(const float v[3]) { return std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]); }

void require_positive(float value, const std::string& field) {
  require(std::isfinite(value) && value > 0, field, "must be a finite number > 0, got " + std::to_string(value));
}

void require_box(const SphBox& box, const std::string& field) {
  require(finite3(box.min) && finite3(box.max), field, "must be finite");
  for (int a = 0; a < 3; ++a) require(box.max[a] > box.min[a], field, "max must exceed min on every axis");
}

bool inside(const SphBox& outer, const SphBox& inner) {
  for (int a = 0; a < 3; ++a)
    if (inner.min[a] < outer.min[a] || inner.max[a] > outer.max[a]) return false;
  return true;
}

bool inside(const SphBox& box, const float p[3]) {
  for (int a = 0; a < 3; ++a)
    if (p[a] < box.min[a] || p[a] > box.max[a]) return false;
  return true;
}

double lattice_points(const SphBox& box, float d) {
  double n = 1;
  for (int a = 0; a < 3; ++a) n *= std::floor((box.max[a] - box.min[a]) / d + 1e-3);
  return n;
}

}  // namespace

void SphParams::validate() const {
  require_positive(particle_radius, "particle_radius");
  require_positive(rest_density, "rest_density");
  require(particle_volume_allowed(particle_volume), "particle_volume", std::string("must be ") + kParticleVolumeRule);
  require(std::isfinite(viscosity) && viscosity >= 0, "viscosity", "must be a finite number >= 0");
  require(std::isfinite(boundary_viscosity) && boundary_viscosity >= 0, "boundary_viscosity", "must be a finite number >= 0");
  require(std::isfinite(surface_tension) && surface_tension >= 0, "surface_tension", "must be a finite number >= 0");
  require(finite3(gravity), "gravity", "must be finite");
  require_box(domain, "domain");
  for (int a = 0; a < 3; ++a)
    require((domain.max[a] - domain.min[a]) / support() < 1024.0f, "domain",
            "spans over 1024 kernel supports on an axis: the neighbour grid would not fit (raise particle_radius)");
  require_positive(cfl, "cfl");
  require(cfl <= 1.0f, "cfl", "must be <= 1 (a particle may not cross more than a diameter per step)");
  require_positive(max_dt, "max_dt");
  require_positive(min_dt, "min_dt");
  require(min_dt <= max_dt, "min_dt", "must be <= max_dt");
  require_positive(fixed_dt, "fixed_dt");
  require_positive(density_tolerance, "density_tolerance");
  require_positive(divergence_tolerance, "divergence_tolerance");
  require(max_iterations >= 2 && max_iterations <= 10000, "max_iterations", "must be in [2, 10000]");

  double particles = 0;
  for (size_t i = 0; i < fills.size(); ++i) {
    const std::string field = "fill[" + std::to_string(i) + "]";
    require_box(fills[i].box, field + ".box");
    require(inside(domain, fills[i].box), field + ".box", "puts particles outside the domain");
    require(finite3(fills[i].velocity), field + ".velocity", "must be finite");
    particles += lattice_points(fills[i].box, diameter());
  }
  for (size_t i = 0; i < boxes.size(); ++i) require_box(boxes[i].box, "box[" + std::to_string(i) + "]");
  for (size_t i = 0; i < planes.size(); ++i) {
    const std::string field = "plane[" + std::to_string(i) + "]";
    require(finite3(planes[i].point) && finite3(planes[i].normal), field, "must be finite");
    const float* n = planes[i].normal;
    require(n[0] * n[0] + n[1] * n[1] + n[2] * n[2] > 1e-12f, field + ".normal", "must not be zero");
  }
  for (size_t i = 0; i < emitters.size(); ++i) {
    const std::string field = "emitter[" + std::to_string(i) + "]";
    const SphEmitter& e = emitters[i];
    require(finite3(e.center) && inside(domain, e.center), field + ".center", "must lie inside the domain");
    const float* n = e.direction;
    require(finite3(n) && n[0] * n[0] + n[1] * n[1] + n[2] * n[2] > 1e-12f, field + ".direction", "must be non-zero");
    require(std::isfinite(e.radius) && e.radius >= particle_radius, field + ".radius", "must be at least particle_radius");
    require_positive(e.speed, field + ".speed");
    require(std::isfinite(e.start) && e.start >= 0 && e.stop > e.start, field + ".stop", "must be after start >= 0");
  }
  for (size_t i = 0; i < sinks.size(); ++i) require_box(sinks[i].box, "sink[" + std::to_string(i) + "].box");
  require(particles >= 1 || !emitters.empty(), "fill", "the scene has no fluid: add a fill or an emitter");
  require(particles <= kMaxParticles, "fill", "needs " + std::to_string(uint64_t(particles)) + " particles, over the limit of " +
                                                  std::to_string(kMaxParticles));
  require(capacity <= kMaxParticles, "capacity", "must be at most " + std::to_string(kMaxParticles));
  require(capacity == 0 || capacity >= particles, "capacity",
          "is " + std::to_string(capacity) + " but the fills alone need " + std::to_string(uint64_t(particles)));
  require(capacity > 0 || emitters.empty(), "capacity", "must be set when the scene has emitters (the most particles alive)");
}

}  // namespace meniscus::sim
