#pragma once
// Particle sets for the particle level-set tests (CPU, and CPU == CUDA): lattices filling a ball
// or a box at spacing 2r, as the SPH stage fills its blocks, optionally jittered, and spray.
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include <glm/glm.hpp>

#include "sim/common/particle.h"

namespace meniscus::sim::levelset::testing {

inline Particle particle_at(glm::vec3 p) {
  Particle out{};
  out.position[0] = p.x;
  out.position[1] = p.y;
  out.position[2] = p.z;
  out.density = 1000.0f;
  return out;
}

// The lattice points (spacing 2r, through the origin) whose distance from `centre` is below
// `within`, in (z, y, x) order.
inline std::vector<Particle> lattice_ball(glm::vec3 centre, float within, float r) {
  const float d = 2.0f * r;
  const glm::ivec3 lo(glm::floor((centre - within) / d)), hi(glm::ceil((centre + within) / d));
  std::vector<Particle> out;
  for (int z = lo.z; z <= hi.z; ++z)
    for (int y = lo.y; y <= hi.y; ++y)
      for (int x = lo.x; x <= hi.x; ++x) {
        const glm::vec3 p = glm::vec3(x, y, z) * d;
        if (glm::length(p - centre) < within) out.push_back(particle_at(p));
      }
  return out;
}

// The radius of the ball whose volume the particles fill, a cube of side 2r each.
inline double equivalent_radius(size_t particles, float r) {
  const double d = 2.0 * r;
  return std::cbrt(3.0 * double(particles) * d * d * d / (4.0 * 3.14159265358979323846));
}

// A box [lo, lo + cells * 2r) filled as the SPH stage fills one: centres at lo + r + 2r k.
inline std::vector<Particle> lattice_box(glm::vec3 lo, glm::ivec3 cells, float r) {
  std::vector<Particle> out;
  for (int z = 0; z < cells.z; ++z)
    for (int y = 0; y < cells.y; ++y)
      for (int x = 0; x < cells.x; ++x) out.push_back(particle_at(lo + r + 2.0f * r * glm::vec3(x, y, z)));
  return out;
}

// Moves every particle by up to `amount` (metres) along each axis, and adds `spray` particles
// scattered in [lo, hi] (a fixed seed: the same set on every run and backend).
inline void jitter_and_spray(std::vector<Particle>& particles, float amount, int spray, glm::vec3 lo, glm::vec3 hi,
                             uint32_t seed = 7) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f), span(0.0f, 1.0f);
  for (Particle& p : particles)
    for (float& x : p.position) x += amount * unit(random);
  for (int k = 0; k < spray; ++k)
    particles.push_back(particle_at(lo + (hi - lo) * glm::vec3(span(random), span(random), span(random))));
}

}  // namespace meniscus::sim::levelset::testing
