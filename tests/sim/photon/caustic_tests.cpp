// Caustic photons against optics nobody here wrote: under a flat slab of water lit straight
// down, the floor receives (1 − R)/(1 + R) of the sun's irradiance (R = ((n − 1)/(n + 1))², the
// two interfaces and every internal reflection summed); a plano-convex water lens concentrates
// the light into a bright spot; the estimate converges (doubling the photons moves the image's
// mean by less than 2%); the same seed gives the same photons; bad input is refused.
#include <tbb/global_control.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <glm/trigonometric.hpp>
#include <vector>

#include "engine/core/error.h"
#include "sim/kdtree/triangle_kdtree.h"
#include "sim/photon/caustic_image.h"
#include "sim/photon/caustic_photons.h"
#include "sim/photon/water_block.h"

namespace meniscus::sim::photon {
namespace {

// A water block (water_block.h) with its kd-tree.
struct Block {
  TriangleSoup mesh;
  kdtree::TriangleKdTree tree;
  RefractingSurface surface() const { return {mesh.vertices, mesh.indices, &tree}; }
};

Block block_with_tree(uint32_t n, float x0, float x1, float z0, float z1, float bottom,
                  const std::function<float(float, float)>& top) {
  Block b{photon::water_block(n, {x0, z0}, {x1, z1}, bottom, top)};
  b.tree = kdtree::build_triangle_kdtree(b.mesh.vertices, b.mesh.indices);
  return b;
}

Sun overhead_sun() {
  Sun sun;
  sun.emit_min = {0.0f, 0.0f};
  sun.emit_max = {1.0f, 1.0f};
  sun.emit_y = 2.0f;
  sun.irradiance = 1.0f;
  return sun;
}

TEST_CASE("caustics: under a flat slab the floor receives (1 - R)/(1 + R) of the sun", "[photon]") {
  const Block slab = block_with_tree(4, 0.2f, 0.8f, 0.2f, 0.8f, 0.2f, [](float, float) { return 0.4f; });
  const CausticPhotons photons = trace_caustic_photons(slab.surface(), overhead_sun(), 0.0f, {.photons = 200000});
  const float r = std::pow((1.33f - 1.0f) / (1.33f + 1.0f), 2.0f);
  const double expected = (1.0 - r) / (1.0 + r);  // 0.9607
  // Straight down, the slab covers 36% of the emitter: the rest is direct light.
  CHECK(std::abs(double(photons.direct) / photons.emitted - 0.64) < 0.01);
  CHECK(photons.dropped == 0);
  const CausticImage image = estimate_caustics(photons, {{0.3f, 0.3f}, {0.7f, 0.7f}, 0.0f, 32, 32});
  INFO("mean " << image.mean() << " expected " << expected << "; stored " << photons.stored << ", escaped "
               << photons.escaped);
  CHECK(std::abs(image.mean() / expected - 1.0) < 0.02);
  // And nothing of it where the slab does not reach.
  const CausticImage outside = estimate_caustics(photons, {{0.85f, 0.85f}, {0.98f, 0.98f}, 0.0f, 8, 8});
  CHECK(outside.mean() < 0.05);
}

// A plano-convex lens of water: a spherical cap (radius 0.2) on a flat block; converging light,
// far brighter below the cap than the sun alone; the estimate converges with the photon count.
Block lens() {
  return block_with_tree(48, 0.2f, 0.8f, 0.2f, 0.8f, 0.5f, [](float x, float z) {
    const float rr = (x - 0.5f) * (x - 0.5f) + (z - 0.5f) * (z - 0.5f);
    constexpr float kRadius = 0.2f, kAperture = 0.15f;
    const float rim = std::sqrt(kRadius * kRadius - kAperture * kAperture);
    return 0.8f + (rr < kAperture * kAperture ? std::sqrt(kRadius * kRadius - rr) - rim : 0.0f);
  });
}

TEST_CASE("caustics: shading normals bend the photons as Snell's law bends them at that normal", "[photon]") {
  // A flat slab 0.2 deep whose vertex normals all lean 20 degrees towards +x: every photon from
  // the overhead sun refracts at the leaning normal, crosses the slab leaning by 20 degrees less
  // the refraction angle, and leaves parallel to where it came in, shifted by the slab's depth
  // times that lean's tangent. The same streams without normals land straight below.
  const Block slab = block_with_tree(4, 0.0f, 1.0f, 0.0f, 1.0f, 0.2f, [](float, float) { return 0.4f; });
  const float lean = glm::radians(20.0f);
  const std::vector<glm::vec3> normals(slab.mesh.vertices.size(), glm::vec3(std::sin(lean), std::cos(lean), 0.0f));
  Sun sun = overhead_sun();
  sun.emit_min = {0.3f, 0.3f};  // well inside the slab: no photon meets a wall
  sun.emit_max = {0.7f, 0.7f};
  RefractingSurface leaning = slab.surface();
  leaning.normals = normals;
  const CausticPhotons flat = trace_caustic_photons(slab.surface(), sun, 0.0f, {.photons = 20000});
  const CausticPhotons bent = trace_caustic_photons(leaning, sun, 0.0f, {.photons = 20000});
  const auto mean_x = [](const CausticPhotons& p) {
    double sum = 0.0;
    for (const glm::vec3& q : p.positions) sum += q.x;
    return sum / double(p.positions.size());
  };
  const double expected = -0.2 * std::tan(double(lean) - std::asin(std::sin(double(lean)) / 1.33));
  INFO("shift " << mean_x(bent) - mean_x(flat) << ", Snell " << expected);
  CHECK(std::abs((mean_x(bent) - mean_x(flat)) / expected - 1.0) < 0.03);
  leaning.normals = std::span(normals).first(3);
  CHECK_THROWS_WITH(trace_caustic_photons(leaning, sun, 0.0f, {}), Catch::Contains("normals"));
}

TEST_CASE("caustics: a water lens focuses the sun, and the estimate converges with the photons", "[photon]") {
  const Block water = lens();
  const FloorGrid grid{{0.3f, 0.3f}, {0.7f, 0.7f}, 0.4f, 48, 48};  // above the focus: a bright disc
  const CausticPhotons few = trace_caustic_photons(water.surface(), overhead_sun(), grid.y, {.photons = 250000});
  const CausticPhotons more = trace_caustic_photons(water.surface(), overhead_sun(), grid.y, {.photons = 500000, .seed = 2});
  const CausticImage a = estimate_caustics(few, grid), b = estimate_caustics(more, grid);
  const float peak = *std::max_element(b.irradiance.begin(), b.irradiance.end());
  INFO("peak " << peak << ", means " << a.mean() << " and " << b.mean());
  CHECK(peak > 3.0f);  // the sun gives 1
  CHECK(std::abs(b.mean() / a.mean() - 1.0) < 0.02);
}

TEST_CASE("caustics: the same seed gives the same photons, whatever the thread count", "[photon]") {
  const Block water = lens();
  const PhotonParams params{.photons = 20000, .seed = 9};
  const CausticPhotons all = trace_caustic_photons(water.surface(), overhead_sun(), 0.3f, params);
  CausticPhotons one;
  {
    tbb::global_control single(tbb::global_control::max_allowed_parallelism, 1);
    one = trace_caustic_photons(water.surface(), overhead_sun(), 0.3f, params);
  }
  CHECK(all.positions == one.positions);
  CHECK(all.stored > 1000);
}

TEST_CASE("caustics: bad suns, floors and grids are refused", "[photon]") {
  const Block slab = block_with_tree(2, 0.2f, 0.8f, 0.2f, 0.8f, 0.2f, [](float, float) { return 0.4f; });
  Sun up = overhead_sun();
  up.direction = {0.0f, 1.0f, 0.0f};
  CHECK_THROWS_AS(trace_caustic_photons(slab.surface(), up, 0.0f, {}), InputError);
  Sun nan_sun = overhead_sun();
  nan_sun.direction.x = NAN;
  CHECK_THROWS_AS(trace_caustic_photons(slab.surface(), nan_sun, 0.0f, {}), InputError);
  CHECK_THROWS_AS(trace_caustic_photons(slab.surface(), overhead_sun(), 3.0f, {}), InputError);
  RefractingSurface no_tree = slab.surface();
  no_tree.tree = nullptr;
  CHECK_THROWS_AS(trace_caustic_photons(no_tree, overhead_sun(), 0.0f, {}), InputError);
  CHECK_THROWS_AS(estimate_caustics({}, {{0.0f, 0.0f}, {0.0f, 1.0f}, 0.0f, 4, 4}), InputError);
  CHECK(estimate_caustics({}, {}, 8).mean() == 0.0);  // no photons: a dark floor, not an error
}

}  // namespace
}  // namespace meniscus::sim::photon
