// The Whitted tracer: the kd-tree gives the image the brute force gives; an empty scene is the
// analytic lit floor and sky; the water blocks the direct sun (a shadow) and the caustic image
// from photon mapping gives back what it lets through — under a flat slab (1 − R)/(1 + R) of
// it; ray counts are what the bounce limit allows; the CPU's waves (whitted_waves.h) give the
// depth-first paths' image for any thread count and wave limit; bad input is refused.
#include <tbb/global_control.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <glm/geometric.hpp>
#include <vector>

#include "engine/core/error.h"
#include "sim/kdtree/triangle_kdtree.h"
#include "sim/photon/caustic_image.h"
#include "sim/photon/caustic_photons.h"
#include "sim/photon/water_block.h"
#include "sim/raytrace/whitted_tracer.h"
#include "sim/raytrace/whitted_waves.h"

namespace meniscus::sim::raytrace {
namespace {

// The middle pixel of a 9 x 9 image: narrow enough that the floor's checker is not filtered
// away (a 1 x 1 image's one pixel spans a 1 degree field of view).
glm::vec3 centre_pixel(const TraceScene& scene, const TraceCamera& camera) {
  return trace_image(scene, camera, {9, 9, 2}).rgb[4 * 9 + 4];
}

photon::TriangleSoup lens_block() {
  return photon::water_block(32, {0.2f, 0.2f}, {0.8f, 0.8f}, 0.2f, [](float x, float z) {
    const float rr = (x - 0.5f) * (x - 0.5f) + (z - 0.5f) * (z - 0.5f);
    return 0.45f + 0.05f * std::cos(12.0f * std::sqrt(rr));
  });
}

TEST_CASE("ray tracer: the kd-tree's image is the brute force's", "[raytrace]") {
  const photon::TriangleSoup water = lens_block();
  const kdtree::TriangleKdTree tree = kdtree::build_triangle_kdtree(water.vertices, water.indices);
  const KdTreeIntersector fast(tree);
  const BruteForceIntersector slow(water.vertices, water.indices);
  TraceScene scene;
  scene.vertices = water.vertices;
  scene.indices = water.indices;
  const TraceCamera camera{{0.5f, 1.1f, -0.6f}, {0.5f, 0.3f, 0.5f}, 45.0f};
  const TraceParams params{48, 32, 2};
  scene.surface = &fast;
  const TraceImage a = trace_image(scene, camera, params);
  scene.surface = &slow;
  const TraceImage b = trace_image(scene, camera, params);
  size_t differing = 0;
  for (size_t i = 0; i < a.rgb.size(); ++i) differing += a.rgb[i] != b.rgb[i];
  INFO(a.stats.hits << " of " << a.stats.primary << " primary rays hit the water; " << differing << " pixels differ");
  CHECK(a.stats.hits > a.stats.primary / 8);  // the water fills a good part of the view
  // Only an exact tie (a ray through a shared edge) may pick a neighbouring triangle's normal.
  CHECK(differing <= a.rgb.size() / 500);  // measured: 0
  CHECK(a.stats.secondary == b.stats.secondary);
  CHECK(a.stats.secondary <= a.stats.primary * 6);  // two levels: 2 + 4 per primary at most
  CHECK(a.stats.secondary >= a.stats.hits * 2);      // every hit reflects and (mostly) refracts
}

// The lens block seen through the tracer's setup: what both orders of the paths read.
struct LensView {
  photon::TriangleSoup water = lens_block();
  kdtree::TriangleKdTree tree = kdtree::build_triangle_kdtree(water.vertices, water.indices);
  KdTreeIntersector surface{tree};
  TraceScene scene;
  TraceCamera camera{{0.5f, 1.1f, -0.6f}, {0.5f, 0.3f, 0.5f}, 45.0f};
  TraceParams params{40, 28, 3, 2};  // three bounces, 2 x 2 samples a pixel
  LensView() {
    scene.surface = &surface;
    scene.vertices = water.vertices;
    scene.indices = water.indices;
  }
};

// Pixels whose radiance differs from `b`'s by more than the rounding of adding the same terms
// in another order.
size_t beyond_rounding(const std::vector<glm::vec3>& a, const std::vector<glm::vec3>& b) {
  size_t differ = 0;
  for (size_t i = 0; i < a.size(); ++i) differ += glm::length(a[i] - b[i]) > 1e-5f * std::max(1.0f, glm::length(b[i]));
  return differ;
}

TEST_CASE("ray tracer: the CPU's waves give the depth-first paths' image and counts, for any wave limit",
          "[raytrace]") {
  const LensView v;
  const TraceSetup setup = prepare_trace(v.scene, v.camera, v.params);
  // Depth first, pixel by pixel, as the CUDA tracer follows the paths.
  WhittedPath<IntersectorSurface> path({&v.surface}, setup.scene);
  std::vector<glm::vec3> depth_first(size_t(v.params.width) * v.params.height);
  for (uint32_t y = 0; y < v.params.height; ++y)
    for (uint32_t x = 0; x < v.params.width; ++x)
      depth_first[size_t(y) * v.params.width + x] = path.pixel(setup.rays, x, y);
  const TraceImage waves = trace_image(v.scene, v.camera, v.params);
  INFO(waves.stats.hits << " hits, " << waves.stats.secondary << " secondary rays");
  REQUIRE(waves.stats.hits > waves.stats.primary / 8);
  CHECK(beyond_rounding(waves.rgb, depth_first) == 0);
  CHECK(waves.stats.hits == path.counts.hits);
  CHECK(waves.stats.secondary == path.counts.secondary);
  CHECK(waves.stats.shadow == path.counts.shadow);
  // Waves of at most 5 branches: the rest of each path depth first, the same sums.
  WhittedWaves short_waves(v.surface, setup.scene, setup.rays, 5);
  std::vector<glm::vec3> overflowed(depth_first.size());
  short_waves.trace_tile(0, v.params.width, 0, v.params.height, overflowed.data());
  CHECK(beyond_rounding(overflowed, depth_first) == 0);
  CHECK(short_waves.counts().secondary == path.counts.secondary);
  CHECK(short_waves.counts().shadow == path.counts.shadow);
}

TEST_CASE("ray tracer: the same image to the bit with one thread as with all", "[raytrace]") {
  LensView v;
  v.params = {96, 64, 3, 2};
  const TraceImage all = trace_image(v.scene, v.camera, v.params);
  TraceImage one;
  {
    tbb::global_control single(tbb::global_control::max_allowed_parallelism, 1);
    one = trace_image(v.scene, v.camera, v.params);
  }
  CHECK(one.rgb == all.rgb);
  CHECK(one.stats.secondary == all.stats.secondary);
}

TEST_CASE("ray tracer: with nothing to refract, the floor and sky are the analytic ones", "[raytrace]") {
  const std::vector<glm::vec3> none_v;
  const std::vector<uint32_t> none_i;
  const kdtree::TriangleKdTree empty = kdtree::build_triangle_kdtree(none_v, none_i);
  const KdTreeIntersector nothing(empty);
  TraceScene scene;
  scene.surface = &nothing;
  scene.to_sun = {0.0f, 1.0f, 0.0f};
  // One pixel looking straight down at a light tile's centre, one looking straight up.
  const TraceImage down = trace_image(scene, {{0.05f, 1.0f, 0.05f}, {0.05f, 0.0f, 0.05f}, 1.0f}, {1, 1, 2});
  CHECK(glm::length(down.rgb[0] - scene.floor_light * (scene.ambient + scene.sun_colour)) < 1e-5f);
  const TraceImage up = trace_image(scene, {{0.0f, 1.0f, 0.0f}, {0.0f, 2.0f, 0.0f}, 1.0f}, {1, 1, 2});
  CHECK(glm::length(up.rgb[0] - scene.sky_zenith) < 1e-5f);
}

TEST_CASE("ray tracer: water shadows the direct sun, and its caustic gives the light back", "[raytrace]") {
  // A flat slab held above the floor; the sun straight overhead; the camera looks under it.
  const photon::TriangleSoup slab = photon::water_block(2, {0.2f, 0.2f}, {0.8f, 0.8f}, 0.2f, [](float, float) { return 0.4f; });
  const kdtree::TriangleKdTree tree = kdtree::build_triangle_kdtree(slab.vertices, slab.indices);
  const KdTreeIntersector water(tree);
  TraceScene scene;
  scene.surface = &water;
  scene.vertices = slab.vertices;
  scene.indices = slab.indices;
  scene.to_sun = {0.0f, 1.0f, 0.0f};
  const TraceCamera under{{0.55f, 0.1f, -1.0f}, {0.55f, 0.0f, 0.55f}, 1.0f};  // a light tile under the slab
  const TraceCamera beside{{0.95f, 0.1f, -1.0f}, {0.95f, 0.0f, 0.55f}, 1.0f};  // a light tile in the sun
  const glm::vec3 in_sun = centre_pixel(scene, beside);
  const glm::vec3 shadowed = centre_pixel(scene, under);
  CHECK(glm::length(in_sun - scene.floor_light * (scene.ambient + scene.sun_colour)) < 1e-5f);
  CHECK(glm::length(shadowed - scene.floor_light * scene.ambient) < 1e-5f);

  photon::Sun sun;
  sun.emit_max = {1.0f, 1.0f};
  sun.emit_y = 2.0f;
  const photon::CausticPhotons photons =
      photon::trace_caustic_photons({slab.vertices, slab.indices, &tree}, sun, 0.0f, {.photons = 100000});
  const photon::CausticImage caustic = photon::estimate_caustics(photons, {{0.2f, 0.2f}, {0.8f, 0.8f}, 0.0f, 24, 24});
  scene.caustics = &caustic;
  const glm::vec3 lit_through = centre_pixel(scene, under);
  const float ior = photon::kWater.ior;
  const float r = std::pow((ior - 1.0f) / (ior + 1.0f), 2.0f);
  const glm::vec3 expected = scene.floor_light * (scene.ambient + (1.0f - r) / (1.0f + r) * scene.sun_colour);
  INFO("under the slab: " << lit_through.x << " " << lit_through.y << " " << lit_through.z << ", expected about "
                          << expected.x << " " << expected.y << " " << expected.z);
  CHECK(glm::length(lit_through - expected) < 0.06f * glm::length(expected));
}

TEST_CASE("ray tracer: an empty image, no surface or a degenerate camera is refused", "[raytrace]") {
  TraceScene scene;
  CHECK_THROWS_AS(trace_image(scene, {}, {16, 16, 2}), InputError);
  const std::vector<glm::vec3> v;
  const std::vector<uint32_t> i;
  const kdtree::TriangleKdTree empty = kdtree::build_triangle_kdtree(v, i);
  const KdTreeIntersector nothing(empty);
  scene.surface = &nothing;
  CHECK_THROWS_AS(trace_image(scene, {}, {0, 16, 2}), InputError);
  CHECK_THROWS_AS(trace_image(scene, {{1, 1, 1}, {1, 1, 1}, 40.0f}, {16, 16, 2}), InputError);
  CHECK_THROWS_AS(trace_image(scene, {{0, 1, 2}, {0, 0, 0}, 180.0f}, {16, 16, 2}), InputError);
}

}  // namespace
}  // namespace meniscus::sim::raytrace
