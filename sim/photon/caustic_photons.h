#pragma once
// Caustic photons (Zhou et al. 2008 §5; Jensen's photon mapping): photons from the sun enter a
// refracting surface (closed meshes of water, glass, ... in a triangle kd-tree), are reflected
// or refracted at each crossing by the exact dielectric Fresnel terms (Russian roulette between
// the two, so a photon keeps its power and the estimate stays unbiased), and are stored where
// they land on the diffuse floor after at least one crossing: the light that made the caustic.
// Photons that never meet the surface are direct light, which the renderer shades without
// photons.
//
// The same photons for any thread count and either backend: photon i draws from its own random
// stream (seed, i), and its path is photon_path.h's.
#include <cstdint>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <span>
#include <vector>

#include "sim/kdtree/triangle_kdtree.h"
#include "sim/photon/optics.h"
#include "sim/photon/photon_path.h"

namespace meniscus::sim::photon {

struct RefractingSurface {
  std::span<const glm::vec3> vertices;
  std::span<const uint32_t> indices;  // closed meshes: a photon on the floor is in the air again
  const kdtree::TriangleKdTree* tree = nullptr;
  const Optics* optics = &kWaterInAir;  // the media either side of each triangle
  // Per-vertex normals of a smooth surface, bending the photons as they bend the view's rays
  // (dielectric.h); empty: each triangle's own.
  std::span<const glm::vec3> normals = {};
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
  uint32_t direct = 0;    // reached the floor without meeting the surface (not stored)
  uint32_t escaped = 0;   // left upwards or sideways, or met the floor out of the air (a mesh not closed)
  uint32_t dropped = 0;   // still inside after max_crossings
};

// Throws InputError for a sun direction that is not downwards or not finite, an empty emitter,
// a floor above the emitter, optics that Optics::validate refuses, normals not one per vertex,
// or no tree.
CausticPhotons trace_caustic_photons(const RefractingSurface& surface, const Sun& sun, float floor_y,
                                     const PhotonParams& params);

// The steps of trace_caustic_photons either backend shares: the checks (InputError as above)
// and the photons' scene, pointing into `surface`'s arrays; then the photons stored from their
// paths (photon i's at i) in photon order, and the sun's power shared among all emitted.
PhotonScene prepare_photons(const RefractingSurface& surface, const Sun& sun, float floor_y,
                            const PhotonParams& params);
CausticPhotons collect_photons(std::span<const PhotonPath> paths, const Sun& sun);
// The sun's power over its rectangle shared among `emitted` photons (0 for none).
float power_per_photon(const Sun& sun, uint32_t emitted);

}  // namespace meniscus::sim::photon
