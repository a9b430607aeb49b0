#pragma once
// A Whitted ray tracer for a refracting surface over a lit floor (Zhou et al. 2008 §4's use of
// the kd-tree): primary rays; at the surface both the reflected and the refracted ray, weighted
// by the exact Fresnel terms, up to max_bounces deep (then the sky in the continuing
// direction); Beer–Lambert absorption in each medium; at the floor a checker lit by the sun behind one
// shadow ray — the refracting surface blocks the direct sun, and the light it lets through
// arrives as the caustic image from photon mapping (sim/photon) when one is given.
//
// Tiles in parallel, each a bounce at a time (whitted_waves.h); every pixel depends on its rays
// alone, so the image does not depend on the thread count or the intersector (the kd-tree, the
// brute force, Embree in the benchmark). The paths themselves are whitted_path.h, which the
// CUDA tracer (whitted_cuda.h) runs too, depth first.
#include <cstdint>
#include <glm/vec3.hpp>
#include <span>
#include <vector>

#include "sim/photon/optics.h"
#include "sim/raytrace/intersector.h"
#include "sim/raytrace/whitted_path.h"

namespace meniscus::sim::photon {
struct CausticImage;
}

namespace meniscus::sim::raytrace {

struct TraceScene {
  const Intersector* surface = nullptr;   // the refracting meshes, closed
  std::span<const glm::vec3> vertices;    // its triangles, for their normals
  std::span<const uint32_t> indices;
  // Per-vertex normals for smooth shading (a scanned mesh), interpolated at the hit and used
  // for the Fresnel terms and the reflected and refracted directions; empty: each triangle's own.
  std::span<const glm::vec3> normals;
  const photon::Optics* optics = &photon::kWaterInAir;  // the media either side of each triangle
  float floor_y = 0.0f;
  float floor_tile = 0.1f;
  glm::vec3 floor_light{0.80f, 0.78f, 0.74f}, floor_dark{0.45f, 0.44f, 0.42f};
  glm::vec3 to_sun{0.3f, 1.0f, 0.2f};  // towards the sun (normalised by the tracer)
  glm::vec3 sun_colour{1.0f, 0.96f, 0.9f};
  glm::vec3 ambient{0.18f, 0.2f, 0.24f};
  glm::vec3 sky_horizon{0.75f, 0.82f, 0.9f}, sky_zenith{0.32f, 0.5f, 0.78f};
  const photon::CausticImage* caustics = nullptr;  // irradiance on the floor, in units of the sun's
};

struct TraceCamera {
  glm::vec3 eye{0.0f, 1.0f, 2.0f};
  glm::vec3 target{0.0f};
  float fov_y_degrees = 40.0f;
};

struct TraceParams {
  uint32_t width = 256, height = 256;
  uint32_t max_bounces = 2;  // secondary rays per path, each level splitting into reflection and refraction
  uint32_t supersample = 1;  // n x n primary rays per pixel on a regular grid, averaged
  // Hall & Greenberg's adaptive depth: a branch that would carry less than this share of its
  // pixel is not traced but ends in the sky along its direction, as at max_bounces. 0 traces
  // every branch; with a little, a path may cross many interfaces (water in a glass tank)
  // without 2^bounces rays a pixel.
  float min_weight = 0.0f;
};

// The primary rays an image of `t` traces.
inline uint64_t primary_rays(const TraceParams& t) {
  return uint64_t(t.width) * t.height * t.supersample * t.supersample;
}

struct TraceStats {
  uint64_t primary = 0, secondary = 0, shadow = 0;
  uint64_t hits = 0;  // primary rays that hit the surface
  double ms = 0.0;
};

struct TraceImage {
  uint32_t width = 0, height = 0;
  std::vector<glm::vec3> rgb;  // linear radiance, row 0 at the top
  TraceStats stats;
};

// The scene and the camera as the paths read them (pointers into `scene`'s arrays) and its rays.
struct TraceSetup {
  PathScene scene;
  PrimaryRays rays;
};

// What trace_image checks and derives before it traces, for either backend: InputError as
// trace_image says.
TraceSetup prepare_trace(const TraceScene& scene, const TraceCamera& camera, const TraceParams& params);

// Throws InputError for an empty image, a missing surface, optics that Optics::validate
// refuses or a bad camera.
TraceImage trace_image(const TraceScene& scene, const TraceCamera& camera, const TraceParams& params);

}  // namespace meniscus::sim::raytrace
