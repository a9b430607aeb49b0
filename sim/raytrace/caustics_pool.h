#pragma once
// The caustics pool: a block of water whose waves change every frame, under the sun, over a
// checkered floor — the dynamic scene of Zhou et al. 2008 (§3–5) as one frame's work:
//   1. the water's closed mesh at time t (sim/photon/water_block.h);
//   2. an SAH kd-tree over its triangles, built from scratch (sim/kdtree/triangle_kdtree.h);
//   3. caustic photons from the sun through it, a photon kd-tree and the KNN irradiance
//      estimate on the floor (sim/photon);
//   4. the Whitted trace of the view: refraction and reflection two bounces deep, a shadow ray
//      at the floor, the caustic where the water lets the sun through (whitted_tracer.h).
// Deterministic: the same time and settings give the same image on any thread count.
#include <cstdint>

#include <glm/vec3.hpp>

#include "sim/raytrace/whitted_tracer.h"

namespace meniscus::sim::raytrace {

struct PoolParams {
  uint32_t grid = 128;                 // water cells per side of the 2 m x 2 m pool
  float depth = 0.5f;                  // m of still water
  float wave_height = 0.04f;           // m: the largest wave's amplitude
  float wave_speed = 1.0f;             // how fast the waves move (1: the default pattern's pace)
  float sun_elevation_degrees = 65.0f;
  float sun_azimuth_degrees = 30.0f;   // from +x towards +z
  uint32_t photons = 200000;
  uint32_t photon_neighbours = 48;     // k of the irradiance estimate
  uint32_t caustic_resolution = 160;   // floor cells per side where the caustic is estimated
  TraceCamera camera{{1.9f, 1.6f, 2.6f}, {0.0f, 0.15f, 0.0f}, 45.0f};
  TraceParams trace{640, 360, 2};

  // InputError naming the field for a value out of range (the scene reader's ranges, checked
  // again for callers that fill the struct themselves).
  void validate() const;
};

struct PoolFrameStats {
  uint32_t triangles = 0;
  uint32_t photons_stored = 0;
  double mesh_ms = 0, build_ms = 0, photon_ms = 0, caustic_ms = 0, trace_ms = 0;
  double sah_cost = 0;
};

struct PoolFrame {
  TraceImage image;
  PoolFrameStats stats;
};

// The pool at `time` seconds.
PoolFrame render_pool(const PoolParams& params, double time);

}  // namespace meniscus::sim::raytrace
