#include "sim/raytrace/refraction_frame.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>
#include <string>

#include "engine/core/error.h"
#include "engine/profile/cpu_timer.h"
#include "sim/kdtree/triangle_kdtree.h"
#include "sim/photon/caustic_image.h"
#include "sim/photon/caustic_photons.h"

namespace meniscus::sim::raytrace {
namespace {

using Clock = std::chrono::steady_clock;

using profile::ms_since;

void require_view(bool ok, const char* field, const std::string& expected) {
  if (!ok) throw InputError(std::string("refraction view: ") + field + " must be " + expected);
}

glm::vec3 towards_sun(const RefractionView& v) {
  const float elevation = glm::radians(v.sun_elevation_degrees), azimuth = glm::radians(v.sun_azimuth_degrees);
  return {std::cos(elevation) * std::cos(azimuth), std::sin(elevation), std::cos(elevation) * std::sin(azimuth)};
}

struct Box {
  glm::vec3 lo{INFINITY}, hi{-INFINITY};
};

Box bounds(std::span<const glm::vec3> vertices) {
  Box b;
  for (const glm::vec3& v : vertices) b.lo = glm::min(b.lo, v), b.hi = glm::max(b.hi, v);
  return b;
}

// Parallel photons from a rectangle above the mesh, shifted towards the sun so that all of
// them head for its box (and a margin around it, which catches the light past its edges).
photon::Sun aimed_sun(const Box& box, const glm::vec3& to_sun) {
  const glm::vec3 size = box.hi - box.lo;
  const float margin = 0.05f * std::max(size.x, size.z);
  photon::Sun sun;
  sun.direction = -to_sun;
  sun.emit_y = box.hi.y + margin;
  // The beam must cover the box at every height it spans: its top and its bottom, shifted.
  const glm::vec2 per_height = glm::vec2(to_sun.x, to_sun.z) / to_sun.y;
  const glm::vec2 at_top = per_height * (sun.emit_y - box.hi.y), at_bottom = per_height * (sun.emit_y - box.lo.y);
  sun.emit_min = glm::min(at_top, at_bottom) + glm::vec2(box.lo.x, box.lo.z) - glm::vec2(margin);
  sun.emit_max = glm::max(at_top, at_bottom) + glm::vec2(box.hi.x, box.hi.z) + glm::vec2(margin);
  sun.irradiance = 1.0f;  // in units of the sun's: the tracer's floor reads it so
  return sun;
}

// The floor rectangle the caustic can fall on: the box and its shadow, square, with a margin.
photon::FloorGrid caustic_grid(const Box& box, const glm::vec3& to_sun, float floor_y, uint32_t resolution) {
  const glm::vec2 shadow = -glm::vec2(to_sun.x, to_sun.z) / to_sun.y * (box.hi.y - floor_y);
  const glm::vec2 lo = glm::min(glm::vec2(box.lo.x, box.lo.z), glm::vec2(box.lo.x, box.lo.z) + shadow);
  const glm::vec2 hi = glm::max(glm::vec2(box.hi.x, box.hi.z), glm::vec2(box.hi.x, box.hi.z) + shadow);
  const glm::vec2 centre = 0.5f * (lo + hi);
  const float half = 0.55f * std::max(hi.x - lo.x, hi.y - lo.y);
  return {centre - glm::vec2(half), centre + glm::vec2(half), floor_y, resolution, resolution};
}

}  // namespace

void RefractionView::validate() const {
  require_view(sun_elevation_degrees >= 10.0f && sun_elevation_degrees <= 90.0f, "sun_elevation_degrees",
               "in [10, 90]");
  require_view(sun_azimuth_degrees >= -360.0f && sun_azimuth_degrees <= 360.0f, "sun_azimuth_degrees",
               "in [-360, 360]");
  require_view(photons >= 1000 && photons <= 20'000'000, "photons", "in [1000, 20000000]");
  require_view(photon_neighbours >= 1 && photon_neighbours <= 1024, "photon_neighbours", "in [1, 1024]");
  require_view(caustic_resolution >= 8 && caustic_resolution <= 2048, "caustic_resolution", "in [8, 2048]");
  require_view(floor_tile >= 1e-3f && floor_tile <= 1e3f, "floor_tile", "in [0.001, 1000] m");
  require_view(trace.width >= 1 && trace.width <= 8192 && trace.height >= 1 && trace.height <= 8192,
               "image_width and image_height", "1..8192 pixels");
  require_view(trace.max_bounces <= 8, "bounces", "at most 8");
  require_view(trace.supersample >= 1 && trace.supersample <= 8, "supersample", "in [1, 8]");
  require_view(trace.min_weight >= 0.0f && trace.min_weight <= 1.0f, "min_weight", "in [0, 1]");
  require_view(primary_rays(trace) <= kMaxPrimaryRays, "image_width x image_height x supersample^2",
               "at most " + std::to_string(kMaxPrimaryRays) + " primary rays a frame, not " +
                   std::to_string(primary_rays(trace)));
}

std::vector<glm::vec3> vertex_normals(const photon::TriangleSoup& mesh) {
  std::vector<glm::vec3> normals(mesh.vertices.size(), glm::vec3(0.0f));
  for (size_t i = 0; i + 2 < mesh.indices.size(); i += 3) {
    const uint32_t a = mesh.indices[i], b = mesh.indices[i + 1], c = mesh.indices[i + 2];
    const glm::vec3 n = glm::cross(mesh.vertices[b] - mesh.vertices[a], mesh.vertices[c] - mesh.vertices[a]);
    normals[a] += n, normals[b] += n, normals[c] += n;
  }
  for (glm::vec3& n : normals) {
    const float length = glm::length(n);
    n = length > 0.0f ? n / length : glm::vec3(0.0f);
  }
  return normals;
}

photon::CausticImage FrameBackend::caustics(const photon::RefractingSurface& surface, const photon::Sun& sun,
                                            float floor_y, const photon::PhotonParams& params,
                                            const photon::FloorGrid& grid, uint32_t k, RefractionFrameStats& stats) {
  auto start = Clock::now();
  const photon::CausticPhotons photons = photon::trace_caustic_photons(surface, sun, floor_y, params);
  stats.photon_ms = ms_since(start);
  stats.photons_stored = photons.stored;
  start = Clock::now();
  photon::CausticImage image = photon::estimate_caustics(photons, grid, k);
  stats.caustic_ms = ms_since(start);
  return image;
}

FrameLight frame_light(std::span<const glm::vec3> vertices, const RefractionView& view) {
  const Box box = bounds(vertices);
  FrameLight light;
  light.to_sun = towards_sun(view);
  light.floor_y = box.lo.y - 0.01f * (box.hi.y - box.lo.y);  // just under it, so its base's caustic is on the floor
  light.sun = aimed_sun(box, light.to_sun);
  light.caustic_grid = caustic_grid(box, light.to_sun, light.floor_y, view.caustic_resolution);
  return light;
}

RefractionFrame render_refraction(const photon::TriangleSoup& mesh, const RefractionView& view,
                                  std::span<const glm::vec3> normals, const photon::Optics& optics,
                                  FrameBackend* backend) {
  FrameBackend cpu;
  FrameBackend& steps = backend ? *backend : cpu;
  view.validate();
  if (mesh.indices.empty()) throw InputError("refraction: the mesh has no triangles");
  optics.validate(mesh.indices.size() / 3);
  RefractionFrame frame;
  frame.stats.triangles = uint32_t(mesh.indices.size() / 3);
  const kdtree::TriangleKdTree& tree = steps.begin_frame(mesh, normals, optics, frame.stats);
  const FrameLight light = frame_light(mesh.vertices, view);
  TraceScene scene;
  const KdTreeIntersector surface(tree);
  scene.surface = &surface;
  scene.vertices = mesh.vertices;
  scene.indices = mesh.indices;
  scene.normals = normals;
  scene.optics = &optics;
  scene.floor_y = light.floor_y;
  scene.floor_tile = view.floor_tile;
  scene.to_sun = light.to_sun;

  const photon::CausticImage caustics =
      steps.caustics({mesh.vertices, mesh.indices, &tree, &optics, normals}, light.sun, light.floor_y,
                     {.photons = view.photons}, light.caustic_grid, view.photon_neighbours, frame.stats);
  scene.caustics = &caustics;

  frame.image = steps.trace(scene, view.camera, view.trace);
  frame.stats.trace_ms = frame.image.stats.ms;
  return frame;
}

}  // namespace meniscus::sim::raytrace
