#include "sim/sph/sph_setup.h"

#include <algorithm>
#include <cmath>

namespace meniscus::sim::sph {
namespace {

uint64_t mix(uint64_t x) {  // splitmix64 finaliser: jitter depends on (seed, index) only
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

float jitter(uint64_t seed, uint64_t index, int axis) {
  return float(mix(mix(seed) ^ (index * 3 + uint64_t(axis))) >> 40) * (1.0f / 16777216.0f) - 0.5f;
}

// Lattice points of spacing d whose spheres of diameter d lie inside the box.
int lattice_count(float extent, float d) { return std::max(0, int(std::floor(extent / d + 1e-3f))); }

}  // namespace

float lattice_volume(const Kernel& kernel, float spacing) {
  const int reach = int(std::ceil(kernel.h / spacing));
  double sum = 0.0;
  for (int z = -reach; z <= reach; ++z)
    for (int y = -reach; y <= reach; ++y)
      for (int x = -reach; x <= reach; ++x)
        sum += kernel_w(kernel, spacing * std::sqrt(float(x * x + y * y + z * z)));
  return float(1.0 / sum);
}

Setup prepare(const SphParams& params) {
  params.validate();
  Setup s;
  const float d = params.diameter();
  s.constants.kernel = Kernel::with_support(params.support());
  s.constants.volume =
      params.particle_volume > 0.0f ? params.particle_volume * d * d * d : lattice_volume(s.constants.kernel, d);
  s.constants.rest_density = params.rest_density;
  s.constants.viscosity = params.viscosity;
  s.constants.boundary_viscosity = params.boundary_viscosity;
  s.constants.surface_tension = params.surface_tension;
  s.constants.gravity = vec(params.gravity);
  s.grid = grid_over(vec(params.domain.min), vec(params.domain.max), params.support());
  s.rank = z_order_ranks(s.grid);
  s.boundary = sample_boundary(params, s.constants.volume);
  // Sub-percent jitter breaks the lattice's symmetry, which would otherwise keep a column
  // standing in unstable equilibrium; it depends on the seed and the particle's index only.
  const float amplitude = 0.01f * d;
  for (const SphFill& fill : params.fills) {
    const int n[3] = {lattice_count(fill.box.max[0] - fill.box.min[0], d),
                      lattice_count(fill.box.max[1] - fill.box.min[1], d),
                      lattice_count(fill.box.max[2] - fill.box.min[2], d)};
    for (int z = 0; z < n[2]; ++z)
      for (int y = 0; y < n[1]; ++y)
        for (int x = 0; x < n[0]; ++x) {
          const uint64_t index = s.position.size();
          s.position.push_back({fill.box.min[0] + (x + 0.5f) * d + amplitude * jitter(params.seed, index, 0),
                                fill.box.min[1] + (y + 0.5f) * d + amplitude * jitter(params.seed, index, 1),
                                fill.box.min[2] + (z + 0.5f) * d + amplitude * jitter(params.seed, index, 2)});
          s.velocity.push_back(vec(fill.velocity));
        }
  }
  s.capacity = params.capacity ? params.capacity : uint32_t(s.position.size());
  return s;
}

EmitterSchedule::EmitterSchedule(const SphParams& params) : spacing_(params.diameter()) {
  for (const SphEmitter& e : params.emitters) {
    Stream stream;
    stream.emitter = e;
    Vec3 n, u, v;
    tangent_frame(vec(e.direction), n, u, v);
    const int reach = int(std::floor(e.radius / spacing_));
    for (int a = -reach; a <= reach; ++a)
      for (int b = -reach; b <= reach; ++b) {
        const float s = a * spacing_, t = b * spacing_;
        if (s * s + t * t <= e.radius * e.radius) stream.layer.push_back(s * u + t * v);
      }
    stream.emitter.direction[0] = n.x;
    stream.emitter.direction[1] = n.y;
    stream.emitter.direction[2] = n.z;
    streams_.push_back(std::move(stream));
  }
}

void EmitterSchedule::advance_layers(double time, float dt, std::vector<Layer>& layers) {
  for (uint32_t k = 0; k < streams_.size(); ++k) {
    Stream& s = streams_[k];
    const SphEmitter& e = s.emitter;
    if (time + dt <= e.start || time >= e.stop) continue;
    const float speed = e.speed * rate_;
    const Vec3 n = vec(e.direction);
    s.travelled += speed * dt;
    // A layer released `ahead` metres ago has moved that far from the mouth.
    while (s.travelled >= spacing_) {
      s.travelled -= spacing_;
      layers.push_back({k, vec(e.center) + s.travelled * n, speed * n});
    }
  }
}

void EmitterSchedule::advance(double time, float dt, std::vector<Vec3>& position, std::vector<Vec3>& velocity) {
  std::vector<Layer> layers;
  advance_layers(time, dt, layers);
  for (const Layer& layer : layers)
    for (const Vec3& offset : streams_[layer.stream].layer) {
      position.push_back(layer.origin + offset);
      velocity.push_back(layer.velocity);
    }
}

std::vector<StageControl> stage_controls(SphParams& params, float scene_radius, EmitterSchedule& emitters) {
  return {{"particle radius (m), resets", &params.particle_radius, 0.5f * scene_radius, 2.0f * scene_radius, true, true},
          {"viscosity (m^2/s)", &params.viscosity, 0.0f, 0.1f, true},
          {"wall friction (m^2/s)", &params.boundary_viscosity, 0.0f, 0.1f, true},
          {"surface tension", &params.surface_tension, 0.0f, 2.0f, false},
          {"emitter rate", emitters.rate_control(), 0.0f, 4.0f, false}};
}

void refresh_constants(const SphParams& params, Constants& constants) {
  constants.viscosity = params.viscosity;
  constants.boundary_viscosity = params.boundary_viscosity;
  constants.surface_tension = params.surface_tension;
}

SphParams settings_without_reset(const SphParams& applied, const SphParams& live) {
  SphParams kept = applied;
  kept.viscosity = live.viscosity;
  kept.boundary_viscosity = live.boundary_viscosity;
  kept.surface_tension = live.surface_tension;
  return kept;
}

}  // namespace meniscus::sim::sph
