#pragma once
// The per-particle arithmetic of the ballistic stage, compiled for both backends so the CPU
// and CUDA implementations run literally the same code.
#include <cmath>
#include <cstdint>

#include "sim/ballistic/ballistic_params.h"
#include "sim/common/host_device.h"
#include "sim/common/particle.h"


namespace meniscus::sim::ballistic {

struct State {
  float position[3];
  float velocity[3];
  float age;            // seconds since (re)spawn
  uint32_t generation;  // respawn count: the RNG stream of the current life
  float agitation;
};

// Counter-based hashing (a splitmix64 finaliser): the random numbers of particle i in its
// g-th life depend on nothing else, so any thread count gives bit-identical results.
MENISCUS_HD inline uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

MENISCUS_HD inline float uniform(uint64_t seed, uint32_t index, uint32_t generation, uint32_t k) {
  const uint64_t h = mix(mix(mix(seed) ^ index) ^ (uint64_t(generation) << 8 | k));
  return float(h >> 40) * (1.0f / 16777216.0f);  // 24 bits: exactly representable in [0, 1)
}

MENISCUS_HD inline State spawn(const BallisticParams& p, uint32_t index, uint32_t generation) {
  constexpr float kTwoPi = 6.28318530717958647692f;
  State s{};
  const float r = p.emitter_radius * sqrtf(uniform(p.seed, index, generation, 0));
  const float a = kTwoPi * uniform(p.seed, index, generation, 1);
  s.position[0] = p.emitter_center[0] + r * cosf(a);
  s.position[1] = p.emitter_center[1];
  s.position[2] = p.emitter_center[2] + r * sinf(a);
  // Uniform direction inside the cone: cos(theta) uniform in [cos(spread), 1].
  const float cos_spread = cosf(p.spread_degrees * (kTwoPi / 360.0f));
  const float cos_theta = 1.0f - uniform(p.seed, index, generation, 2) * (1.0f - cos_spread);
  const float sin_theta = sqrtf(fmaxf(0.0f, 1.0f - cos_theta * cos_theta));
  const float phi = kTwoPi * uniform(p.seed, index, generation, 3);
  const float speed = p.speed_min + (p.speed_max - p.speed_min) * uniform(p.seed, index, generation, 4);
  s.velocity[0] = speed * sin_theta * cosf(phi);
  s.velocity[1] = speed * cos_theta;
  s.velocity[2] = speed * sin_theta * sinf(phi);
  s.generation = generation;
  return s;
}

// One fixed step. Free flight is integrated exactly (constant gravity); a particle crossing
// the ground is put back on it with its normal velocity reflected and scaled.
MENISCUS_HD inline void advance(State& s, const BallisticParams& p, uint32_t index, float dt) {
  s.age += dt;
  if (s.age >= p.particle_lifetime) {
    const float carried = s.age - p.particle_lifetime;
    s = spawn(p, index, s.generation + 1);
    s.age = carried;
    s.agitation = 0.0f;
    return;
  }
  float before[3] = {s.velocity[0], s.velocity[1], s.velocity[2]};
  for (int k = 0; k < 3; ++k) {
    s.position[k] += s.velocity[k] * dt + 0.5f * p.gravity[k] * dt * dt;
    s.velocity[k] += p.gravity[k] * dt;
  }
  if (s.position[1] < p.ground_height) {
    s.position[1] = p.ground_height;
    if (s.velocity[1] < 0.0f) s.velocity[1] = -s.velocity[1] * p.restitution;
    s.velocity[0] *= 1.0f - p.friction;
    s.velocity[2] *= 1.0f - p.friction;
  }
  const float dx = s.velocity[0] - before[0], dy = s.velocity[1] - before[1], dz = s.velocity[2] - before[2];
  s.agitation = sqrtf(dx * dx + dy * dy + dz * dz);
}

// Particle i at the start: already part-way through its life, so the fountain is full at once.
MENISCUS_HD inline State initial(const BallisticParams& p, uint32_t index) {
  State s = spawn(p, index, 0);
  const float target_age = p.particle_lifetime * uniform(p.seed, index, 0, 7);
  const int steps = int(target_age / p.fixed_dt);
  for (int i = 0; i < steps; ++i) advance(s, p, index, p.fixed_dt);
  return s;
}

MENISCUS_HD inline Particle publish(const State& s) {
  Particle out{};
  for (int k = 0; k < 3; ++k) {
    out.position[k] = s.position[k];
    out.velocity[k] = s.velocity[k];
  }
  out.density = 1.0f;
  out.agitation = s.agitation;
  return out;
}

MENISCUS_HD inline bool finite(const State& s) {
#ifndef __CUDACC__
  using std::isfinite;
#endif
  return isfinite(s.position[0]) && isfinite(s.position[1]) && isfinite(s.position[2]) && isfinite(s.velocity[0]) &&
         isfinite(s.velocity[1]) && isfinite(s.velocity[2]);
}

}  // namespace meniscus::sim::ballistic
