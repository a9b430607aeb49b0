#pragma once
// Settings of the SPH fluid stage (scenes: [[stage]] type = "sph"): physical constants, the
// domain, what fills it at the start, what flows in and out, and the solver's tolerances.
// Lengths in metres, times in seconds, densities in kg/m^3.
#include <cstdint>
#include <string>
#include <vector>

namespace meniscus::sim {

struct SphBox {
  float min[3] = {0, 0, 0};
  float max[3] = {0, 0, 0};
};

// A block of fluid particles on a cubic lattice of spacing 2 * particle_radius (a dam break's
// column, a drop's pool).
struct SphFill {
  SphBox box;
  float velocity[3] = {0, 0, 0};
};

// A static solid box, sampled on its surface by boundary particles.
struct SphBoxCollider {
  SphBox box;
};

// A static plane, sampled where it lies inside the domain (fluid on the side the normal faces).
struct SphPlane {
  float point[3] = {0, 0, 0};
  float normal[3] = {0, 1, 0};
};

// An inflow: a disk of particles injected with velocity `speed * direction`, one lattice layer
// each time the previous layer has moved one spacing (a jet, or a pipe's mouth).
struct SphEmitter {
  float center[3] = {0, 0, 0};
  float direction[3] = {1, 0, 0};
  float radius = 0.05f;
  float speed = 1.0f;
  float start = 0.0f;  // seconds of simulated time
  float stop = 1e30f;
};

// Particles entering a sink box are removed (the basin's drain).
struct SphSink {
  SphBox box;
};

struct SphParams {
  float particle_radius = 0.01f;  // lattice spacing is twice this; the kernel support four times
  float rest_density = 1000.0f;
  // A particle's volume (mass / rest_density) as a fraction of diameter^3; 0: the filling
  // lattice's own, so a fill starts exactly at rest density. SPlisHSPlasH's fixed choice is 0.8,
  // which starts a lattice 20% below rest density: it falls loose until it packs 25% denser.
  float particle_volume = 0.0f;
  // Kinematic viscosity (m^2/s) of the fluid, and of the fluid against solids (wall friction),
  // both with the SPH Laplacian of Monaghan (2005) as in SPlisHSPlasH's "standard" model.
  float viscosity = 1e-5f;
  float boundary_viscosity = 0.0f;
  // Akinci et al. (2013): cohesion + curvature minimisation; 0 turns it off.
  float surface_tension = 0.0f;
  float gravity[3] = {0.0f, -9.81f, 0.0f};
  SphBox domain{{0, 0, 0}, {1, 1, 1}};

  // Time stepping: CFL-adaptive substeps (interactive) or a fixed step (deterministic replays).
  bool adaptive = true;
  float cfl = 0.4f;  // dt <= cfl * diameter / max |v|
  float max_dt = 0.005f;
  float min_dt = 1e-6f;
  float fixed_dt = 0.001f;

  // DFSPH: iterate until the mean density error (relative to rest density) and the mean
  // divergence error (relative, per step) fall below these.
  float density_tolerance = 5e-4f;
  float divergence_tolerance = 1e-3f;
  int max_iterations = 100;
  bool divergence_solve = true;

  uint64_t seed = 1;              // seeds the sub-percent jitter of filled lattices
  uint32_t capacity = 0;          // most particles alive at once; 0: what the fills need

  std::vector<SphFill> fills;
  std::vector<SphBoxCollider> boxes;
  std::vector<SphPlane> planes;
  std::vector<SphEmitter> emitters;
  std::vector<SphSink> sinks;

  static constexpr uint32_t kMaxParticles = 1u << 26;

  // particle_volume's range: 0 (the lattice's own) or [0.5, 1.5]; NaN is neither. The rule's
  // words, for the errors of every reader of it.
  static bool particle_volume_allowed(float v) { return v == 0.0f || (v >= 0.5f && v <= 1.5f); }
  static constexpr const char* kParticleVolumeRule =
      "0 (the filling lattice's own) or in [0.5, 1.5] (a fraction of diameter^3)";

  float diameter() const { return 2.0f * particle_radius; }
  float support() const { return 4.0f * particle_radius; }

  // Throws InputError naming `sph.<field>` for a value out of range, a fill outside the domain,
  // or a particle count over the capacity.
  void validate() const;
};

}  // namespace meniscus::sim
