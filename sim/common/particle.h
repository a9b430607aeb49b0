#pragma once
// The particle record every particle stage publishes and every particle pass reads
// (shaders/particles.vert declares the same std430 struct).
#include <cstdint>

namespace meniscus::sim {

struct alignas(16) Particle {
  float position[3];
  float density;  // kg/m^3 for fluids; 1 for stages without a density
  float velocity[3];
  float agitation;  // |Δv| over the last step (foam, tinting)
};
static_assert(sizeof(Particle) == 32, "must match the std430 layout in the shaders");

}  // namespace meniscus::sim
