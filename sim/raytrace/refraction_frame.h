#pragma once
// One frame of a refracting mesh standing on a checkered floor under the sun, everything built
// from the frame's triangles (Zhou et al. 2008 §3–5):
//   1. an SAH kd-tree over the triangles, from scratch (sim/kdtree/triangle_kdtree.h);
//   2. caustic photons from the sun through the mesh, a photon kd-tree and the KNN irradiance
//      estimate on the floor around it (sim/photon);
//   3. the Whitted trace of the view: refraction and reflection `bounces` deep, a shadow ray at
//      the floor, the caustic where the mesh lets the sun through (whitted_tracer.h).
// The floor lies just under the mesh's lowest point; the sun's photons are aimed at the mesh's
// box and the caustic is estimated over the box and the shadow it casts. Deterministic: the
// same triangles and view give the same image on any thread count.
#include <cstdint>
#include <span>
#include <vector>

#include "sim/kdtree/triangle_kdtree.h"
#include "sim/photon/caustic_image.h"
#include "sim/photon/caustic_photons.h"
#include "sim/photon/water_block.h"
#include "sim/raytrace/whitted_tracer.h"

namespace meniscus::sim::raytrace {

struct RefractionView {
  float sun_elevation_degrees = 65.0f;
  float sun_azimuth_degrees = -125.0f;  // from +x towards +z
  uint32_t photons = 200000;
  uint32_t photon_neighbours = 48;      // k of the irradiance estimate
  uint32_t caustic_resolution = 160;    // floor cells per side where the caustic is estimated
  float floor_tile = 0.25f;             // m
  TraceCamera camera{{1.5f, 2.3f, 2.3f}, {0.0f, 0.1f, 0.1f}, 45.0f};
  TraceParams trace{640, 360, 2};

  // InputError naming the field for a value out of range (the scene readers' ranges, checked
  // again for callers that fill the struct themselves).
  void validate() const;
};

// A frame's primary rays (primary_rays, whitted_tracer.h), bounded so that a scene cannot ask
// for hours of tracing per frame (each may split into 2^(bounces + 1) more): 4096 x 4096 at one
// ray per pixel.
inline constexpr uint64_t kMaxPrimaryRays = uint64_t(4096) * 4096;

struct RefractionFrameStats {
  uint32_t triangles = 0;
  uint32_t photons_stored = 0;
  double build_ms = 0, photon_ms = 0, caustic_ms = 0, trace_ms = 0;
  double sah_cost = 0;  // the tree's; 0 where it stays on a device
};

struct RefractionFrame {
  TraceImage image;
  RefractionFrameStats stats;
};

// The frame's steps as a backend does them: the CPU's by default. The CUDA backend copies the
// mesh to the device and builds the tree there, makes the caustic there (photons, their tree,
// the estimate), and traces the view there into an image it keeps on the device (returning the
// stats alone).
class FrameBackend {
 public:
  virtual ~FrameBackend() = default;
  // Step 1: the frame's kd-tree over `mesh`, its build time and SAH cost into `stats`. Steps 2
  // and 3 on the CPU read the tree returned (through surface.tree and scene.surface), valid
  // until the next frame's; a backend that keeps its tree on a device returns an empty one and
  // reads its own.
  virtual const kdtree::TriangleKdTree& begin_frame(const photon::TriangleSoup& mesh,
                                                    std::span<const glm::vec3> normals, const photon::Optics& optics,
                                                    RefractionFrameStats& stats) {
    (void)normals, (void)optics;
    const kdtree::TriangleKdTree& tree = builder_.build(mesh.vertices, mesh.indices);
    stats.build_ms = tree.stats.build_ms;
    stats.sah_cost = tree.stats.sah_cost;
    return tree;
  }
  // Step 2: the caustic on `grid`: photons from `sun` through the surface stored on the floor,
  // their kd-tree and the irradiance from the k nearest at each cell; photons_stored,
  // photon_ms and caustic_ms into `stats`. A backend that keeps the irradiance on a device
  // returns the image without it and reads its own in step 3.
  virtual photon::CausticImage caustics(const photon::RefractingSurface& surface, const photon::Sun& sun, float floor_y,
                                        const photon::PhotonParams& params, const photon::FloorGrid& grid, uint32_t k,
                                        RefractionFrameStats& stats);
  virtual TraceImage trace(const TraceScene& scene, const TraceCamera& camera, const TraceParams& params) {
    return trace_image(scene, camera, params);
  }

 private:
  kdtree::TriangleKdBuilder builder_;  // its memory kept from frame to frame
};

// Where render_refraction puts the floor and the sun for a mesh of `vertices` (at least one):
// the floor just under its lowest point, the sun's parallel photons aimed at its box from the
// view's direction, and the floor grid the caustic is estimated over (the box and its shadow).
struct FrameLight {
  glm::vec3 to_sun{0.0f, 1.0f, 0.0f};
  float floor_y = 0.0f;
  photon::Sun sun;
  photon::FloorGrid caustic_grid;
};
FrameLight frame_light(std::span<const glm::vec3> vertices, const RefractionView& view);

// `normals`: per-vertex shading normals (vertex_normals below) for a smooth surface, or empty
// for flat faces; `optics`: the media the triangles separate (photon/optics.h); `backend`:
// steps 2 and 3, the CPU's when null. InputError for an empty mesh.
RefractionFrame render_refraction(const photon::TriangleSoup& mesh, const RefractionView& view,
                                  std::span<const glm::vec3> normals = {},
                                  const photon::Optics& optics = photon::kWaterInAir, FrameBackend* backend = nullptr);

// Area-weighted vertex normals: each triangle's cross product added to its corners, normalised.
std::vector<glm::vec3> vertex_normals(const photon::TriangleSoup& mesh);

}  // namespace meniscus::sim::raytrace
