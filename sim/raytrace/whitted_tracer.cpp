// trace_image (whitted_tracer.h).
#include "sim/raytrace/whitted_tracer.h"

#include <tbb/blocked_range2d.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <chrono>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>
#include <string>

#include "engine/core/error.h"
#include "sim/photon/caustic_image.h"
#include "sim/raytrace/whitted_waves.h"

namespace meniscus::sim::raytrace {

TraceSetup prepare_trace(const TraceScene& scene, const TraceCamera& camera, const TraceParams& params) {
  if (params.width == 0 || params.height == 0) throw InputError("ray tracer: the image is empty");
  if (params.supersample < 1 || params.supersample > 8) throw InputError("ray tracer: supersample must be 1..8");
  if (params.max_bounces > WhittedPath<IntersectorSurface>::kMaxBounces)
    throw InputError("ray tracer: max_bounces must be at most " +
                     std::to_string(WhittedPath<IntersectorSurface>::kMaxBounces));
  if (!(params.min_weight >= 0.0f && params.min_weight <= 1.0f))
    throw InputError("ray tracer: min_weight must be in [0, 1]");
  if (!scene.normals.empty() && scene.normals.size() != scene.vertices.size())
    throw InputError("ray tracer: " + std::to_string(scene.normals.size()) + " normals for " +
                     std::to_string(scene.vertices.size()) + " vertices");
  if (!scene.optics) throw InputError("ray tracer: no optics for the surface");
  scene.optics->validate(scene.indices.size() / 3);
  const glm::vec3 forward_raw = camera.target - camera.eye;
  if (!(glm::length(forward_raw) > 0.0f) || !(camera.fov_y_degrees > 0.0f && camera.fov_y_degrees < 180.0f))
    throw InputError("ray tracer: the camera needs a target away from its eye and a field of view in (0, 180) degrees");

  TraceSetup setup;
  PrimaryRays& rays = setup.rays;
  rays.eye = camera.eye;
  rays.forward = glm::normalize(forward_raw);
  const glm::vec3 world_up = std::abs(rays.forward.y) > 0.999f ? glm::vec3(0, 0, 1) : glm::vec3(0, 1, 0);
  rays.right = glm::normalize(glm::cross(rays.forward, world_up));
  rays.up = glm::cross(rays.right, rays.forward);
  rays.half_height = std::tan(glm::radians(camera.fov_y_degrees) * 0.5f);
  rays.half_width = rays.half_height * float(params.width) / float(params.height);
  rays.width = params.width;
  rays.height = params.height;
  rays.supersample = params.supersample;

  PathScene& path = setup.scene;
  path.indices = scene.indices.data();
  path.normals = scene.normals.empty() ? nullptr : scene.normals.data();
  path.optics = scene.optics->view();
  path.floor_y = scene.floor_y;
  path.floor_tile = scene.floor_tile;
  path.floor_light = scene.floor_light;
  path.floor_dark = scene.floor_dark;
  path.to_sun = glm::normalize(scene.to_sun);
  path.sun_colour = scene.sun_colour;
  path.ambient = scene.ambient;
  path.sky_horizon = scene.sky_horizon;
  path.sky_zenith = scene.sky_zenith;
  if (scene.caustics) {
    const photon::FloorGrid& grid = scene.caustics->grid;
    path.caustics = {grid.min, grid.max, grid.width, grid.height, scene.caustics->irradiance.data()};
  }
  path.max_bounces = params.max_bounces;
  path.min_weight = params.min_weight;
  path.pixel_angle = 2.0f * rays.half_height / float(params.height * params.supersample);
  return setup;
}

TraceImage trace_image(const TraceScene& scene, const TraceCamera& camera, const TraceParams& params) {
  if (!scene.surface) throw InputError("ray tracer: no surface to trace");
  const TraceSetup setup = prepare_trace(scene, camera, params);
  const auto start = std::chrono::steady_clock::now();
  TraceImage image;
  image.width = params.width;
  image.height = params.height;
  image.rgb.resize(size_t(params.width) * params.height);
  // Tiles of at most 16 x 16 pixels (the simple partitioner keeps them so; TBB's default would hand a
  // thread larger ones): the secondary rays of neighbouring pixels, above and below as well as
  // beside, walk the same nodes while they are still in the cache, and a tile's waves
  // (whitted_waves.h) hold rays that packets can share. Fixed tiles keep the image independent
  // of the thread count even where a wave overflows into depth-first branches. Each thread
  // keeps its waves' buffers from tile to tile, and its own counts, added once at the end.
  tbb::enumerable_thread_specific<WhittedWaves> waves(
      [&] { return WhittedWaves(*scene.surface, setup.scene, setup.rays); });
  constexpr uint32_t kTile = 16;
  tbb::parallel_for(
      tbb::blocked_range2d<uint32_t>(0, params.height, kTile, 0, params.width, kTile),
      [&](const tbb::blocked_range2d<uint32_t>& tile) {
        waves.local().trace_tile(tile.cols().begin(), tile.cols().end(), tile.rows().begin(), tile.rows().end(),
                                 image.rgb.data());
      },
      tbb::simple_partitioner());
  image.stats.primary = primary_rays(params);
  for (const WhittedWaves& thread : waves) {
    image.stats.secondary += thread.counts().secondary;
    image.stats.shadow += thread.counts().shadow;
    image.stats.hits += thread.counts().hits;
  }
  image.stats.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return image;
}

}  // namespace meniscus::sim::raytrace
