#pragma once
// Caustic photons (Zhou et al. 2008 §5; Jensen's photon mapping): photons from the sun enter a
// refracting surface (a closed water mesh in a triangle kd-tree), are reflected or refracted at
// each crossing by the exact dielectric Fresnel terms (Russian roulette between the two, so a
// photon keeps its power and the estimate stays unbiased), and are stored where they land on
// the diffuse floor after at least one crossing: the light that made the caustic. Photons that
// never meet the water are direct light, which the renderer shades without photons.
//
// The same photons for any thread count: photon i draws from its own random stream (seed, i).
#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "sim/kdtree/triangle_kdtree.h"

namespace meniscus::sim::photon {

struct WaterSurface {
  std::span<const glm::vec3> vertices;
  std::span<const uint32_t> indices;  // a closed mesh: every crossing toggles inside/outside
  const kdtree::TriangleKdTree* tree = nullptr;
  float ior = 1.33f;  // water against air
};

// A sun above the scene: parallel photons leaving the rectangle [emit_min, emit_max] (x, z) at
// height emit_y, along `direction` (downwards), carrying `irradiance` W/m² across that
// rectangle (measured perpendicular to the direction).
struct Sun {
  glm::vec3 direction{0.0f, -1.0f, 0.0f};
  float irradiance = 1.0f;
  glm::vec2 emit_min{0.0f}, emit_max{1.0f};
  float emit_y = 1.0f;
};

struct PhotonParams {
  uint32_t photons = 100000;
  uint32_t max_crossings = 16;  // a photon still bouncing inside after this many is dropped
  uint64_t seed = 1;
};

struct CausticPhotons {
  std::vector<glm::vec3> positions;  // on the floor plane
  float power_per_photon = 0.0f;     // W: the sun's power over the rectangle / photons emitted
  uint32_t emitted = 0, stored = 0;
  uint32_t direct = 0;    // reached the floor without meeting the water (not stored)
  uint32_t escaped = 0;   // left upwards or sideways
  uint32_t dropped = 0;   // still inside after max_crossings
};

// Throws InputError for a sun direction that is not downwards or not finite, an empty emitter,
// a floor above the emitter, an index of refraction <= 0, or no tree.
CausticPhotons trace_caustic_photons(const WaterSurface& water, const Sun& sun, float floor_y, const PhotonParams& params);

}  // namespace meniscus::sim::photon
