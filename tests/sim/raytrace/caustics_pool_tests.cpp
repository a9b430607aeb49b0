// The caustics pool's frame: a closed water mesh in its glass tank rebuilt at every time, a
// caustic on the floor under the waves that the photons put there, an image that moves with
// the waves and is the same for any thread count; the stage's settings checked and its missing
// CUDA backend named.
#include <catch2/catch.hpp>
#include <tbb/global_control.h>

#include <cmath>
#include <glm/common.hpp>
#include <glm/exponential.hpp>

#include "engine/core/error.h"
#include "sim/raytrace/caustics_pool.h"
#include "sim/raytrace/refraction_stages.h"

namespace meniscus::sim::raytrace {
namespace {

PoolParams small_pool() {
  PoolParams p;
  p.grid = 24;
  p.view.photons = 40000;
  p.view.caustic_resolution = 48;
  p.view.trace = {96, 54, 2};
  return p;
}

double difference(const TraceImage& a, const TraceImage& b) {
  double sum = 0;
  for (size_t i = 0; i < a.rgb.size(); ++i)
    for (int c = 0; c < 3; ++c) sum += std::abs(double(a.rgb[i][c]) - double(b.rgb[i][c]));
  return sum;
}

}  // namespace

TEST_CASE("caustics pool: a closed water block every frame, photons through it, an image that moves with time",
          "[raytrace]") {
  const PoolParams p = small_pool();
  const RefractionFrame first = render_pool(p, 0.0);
  // The water's top and bottom (2 n^2 each) and four walls of n quads (2 n each); the tank's
  // inner walls above the waterline (as many), its outer bottom, four outer walls and the rim's
  // four quads.
  CHECK(first.stats.triangles == 4 * p.grid * p.grid + 16 * p.grid + 18);
  CHECK(first.stats.photons_stored > p.view.photons / 2);  // the sun's beam is aimed at the pool
  CHECK(first.stats.sah_cost > 0.0);
  CHECK(first.image.stats.hits > 0);
  const RefractionFrame later = render_pool(p, 0.5);
  CHECK(difference(first.image, later.image) > 0.0);
  tbb::global_control one(tbb::global_control::max_allowed_parallelism, 1);
  CHECK(difference(render_pool(p, 0.5).image, later.image) == 0.0);
}

TEST_CASE("caustics pool: under still water and an overhead sun the floor gets the sun less two Fresnel losses",
          "[raytrace]") {
  // A flat top bends nothing aside: the photons cross the top and the bottom face and land
  // under where they entered, so the caustic is the sun times two normal-incidence
  // transmissions, 1 - ((n - 1) / (n + 1))^2 each. The camera looks straight down at a light
  // tile's middle through the same two faces and 0.5 m of water, and sees that floor.
  PoolParams p = small_pool();
  p.glass_wall = 0.0f;
  p.wave_height = 0.0f;
  p.view.sun_elevation_degrees = 90.0f;
  p.view.photons = 400000;
  p.view.photon_neighbours = 256;  // about 6% noise per estimate, less after the bilinear blend
  p.view.trace = {9, 9, 2};
  p.view.camera = {{0.125f, 3.0f, 0.126f}, {0.125f, 0.0f, 0.125f}, 1.0f};
  const RefractionFrame frame = render_pool(p, 0.0);
  const glm::vec3 seen = frame.image.rgb[4 * 9 + 4];
  const TraceScene defaults;
  const float ior = photon::kWater.ior;
  const float r = std::pow((ior - 1.0f) / (ior + 1.0f), 2.0f), t = 1.0f - r;
  const glm::vec3 floor = defaults.floor_light * (defaults.ambient + t * t * defaults.sun_colour);
  const glm::vec3 expected = floor * t * t * glm::exp(-photon::kWater.absorption * p.depth);
  for (int c = 0; c < 3; ++c) {
    INFO("channel " << c << ": seen " << seen[c] << ", expected " << expected[c]);
    CHECK(std::abs(seen[c] - expected[c]) < 0.08f * expected[c]);
  }
}

TEST_CASE("caustics pool: through still water in its glass tank the floor gets the sun less three Fresnel losses",
          "[raytrace]") {
  // Straight down: air into water, water into glass, glass into air, each at normal incidence,
  // the photons and the view alike. The view adds what the top and the glass's underside
  // reflect of the zenith; every other path is below a thousandth.
  PoolParams p = small_pool();
  p.wave_height = 0.0f;
  p.view.sun_elevation_degrees = 90.0f;
  p.view.photons = 400000;
  p.view.photon_neighbours = 256;
  p.view.trace = {9, 9, 6};
  p.view.camera = {{0.125f, 3.0f, 0.126f}, {0.125f, 0.0f, 0.125f}, 1.0f};
  const RefractionFrame frame = render_pool(p, 0.0);
  const glm::vec3 seen = frame.image.rgb[4 * 9 + 4];
  const auto reflectance = [](float n1, float n2) { return std::pow((n1 - n2) / (n1 + n2), 2.0f); };
  const float r_top = reflectance(1.0f, photon::kWater.ior),
              r_glass = reflectance(photon::kWater.ior, photon::kGlass.ior),
              r_under = reflectance(photon::kGlass.ior, 1.0f);
  const float down = (1.0f - r_top) * (1.0f - r_glass) * (1.0f - r_under);
  const glm::vec3 absorbed = glm::exp(-photon::kWater.absorption * p.depth - photon::kGlass.absorption * p.glass_wall);
  const TraceScene defaults;
  const glm::vec3 floor = defaults.floor_light * (defaults.ambient + down * defaults.sun_colour);
  const float up_again = std::pow((1.0f - r_top) * (1.0f - r_glass), 2.0f) * r_under;
  const glm::vec3 expected =
      floor * down * absorbed + r_top * defaults.sky_zenith + up_again * absorbed * absorbed * defaults.sky_zenith;
  for (int c = 0; c < 3; ++c) {
    INFO("channel " << c << ": seen " << seen[c] << ", expected " << expected[c]);
    CHECK(std::abs(seen[c] - expected[c]) < 0.08f * expected[c]);
  }
  // Adaptive depth drops the faint branches and keeps the picture.
  p.view.trace.min_weight = 0.02f;
  const RefractionFrame pruned = render_pool(p, 0.0);
  CHECK(3 * pruned.image.stats.secondary < frame.image.stats.secondary);
  CHECK(glm::length(pruned.image.rgb[4 * 9 + 4] - seen) < 0.02f * glm::length(seen));
}

TEST_CASE("caustics pool stage: bad settings name their field, and the CUDA backend needs a context to share its image",
          "[raytrace]") {
  PoolParams p = small_pool();
  p.grid = 1;
  CHECK_THROWS_WITH(make_caustics_pool_stage(p, SimBackend::Cpu), Catch::Contains("grid"));
  p = small_pool();
  p.wave_height = p.depth;
  CHECK_THROWS_WITH(make_caustics_pool_stage(p, SimBackend::Cpu), Catch::Contains("wave_height"));
  p = small_pool();
  p.glass_wall = NAN;
  CHECK_THROWS_WITH(make_caustics_pool_stage(p, SimBackend::Cpu), Catch::Contains("glass_wall"));
  p = small_pool();
  p.view.trace.min_weight = 1.5f;
  CHECK_THROWS_WITH(make_caustics_pool_stage(p, SimBackend::Cpu), Catch::Contains("min_weight"));
  CHECK_THROWS_WITH(make_caustics_pool_stage(small_pool(), SimBackend::Cuda), Catch::Contains("Vulkan context"));
  const auto stage = make_caustics_pool_stage(small_pool(), SimBackend::Cpu);
  CHECK(stage->width() == 96);
  CHECK(stage->output() == StageOutput::TracedImage);
  CHECK(!stage->controls().empty());
}

TEST_CASE("caustics pool stage: paused, it keeps its frame until the panel moves the sun", "[raytrace]") {
  const auto stage = make_caustics_pool_stage(small_pool(), SimBackend::Cpu);
  stage->step(1.0 / 60.0);
  const std::string moving = stage->summary();  // the frame's photon count and timings
  stage->step(0.0);
  CHECK(stage->summary() == moving);  // not traced again
  *stage->controls().front().value = 30.0f;  // the sun's elevation
  stage->step(0.0);
  CHECK(stage->summary() != moving);  // a lower sun: other photons through the waves
}

}  // namespace meniscus::sim::raytrace

namespace meniscus::sim::raytrace {

TEST_CASE("spinning mesh: stood up on its axis, scaled to its height, turning about the vertical", "[raytrace]") {
  // A box 2 x 4 x 8 along x, y, z, z up: after standing it up it is 1 m tall, 0.25 x 0.5 wide.
  TriangleMesh box;
  for (int i = 0; i < 8; ++i) box.vertices.push_back({float(i & 1) * 2.0f, float((i >> 1) & 1) * 4.0f, float(i >> 2) * 8.0f});
  box.triangles = {{0, 1, 3}, {0, 3, 2}, {4, 6, 7}, {4, 7, 5}, {0, 4, 5}, {0, 5, 1},
                   {2, 3, 7}, {2, 7, 6}, {0, 2, 6}, {0, 6, 4}, {1, 5, 7}, {1, 7, 3}};
  SpinningMeshParams params;
  params.up_axis = 2;
  params.spin_degrees_per_second = 90.0f;
  const SpinningMesh spinning(box, params, "box");
  const photon::TriangleSoup rest = spinning.at(0.0), quarter = spinning.at(1.0);
  glm::vec3 lo(INFINITY), hi(-INFINITY);
  for (const glm::vec3& v : rest.vertices) lo = glm::min(lo, v), hi = glm::max(hi, v);
  CHECK(lo.y == 0.0f);
  CHECK(hi.y == Approx(1.0f));
  CHECK(hi.x - lo.x == Approx(0.5f));   // the mesh's y (4) is now x
  CHECK(hi.z - lo.z == Approx(0.25f));  // its x (2) is now z: a rotation, not a mirror
  CHECK(lo.x == Approx(-hi.x));         // centred over the origin
  // A quarter turn later x and z have swapped extents; every vertex moved, none rose or fell.
  glm::vec3 qlo(INFINITY), qhi(-INFINITY);
  for (size_t i = 0; i < quarter.vertices.size(); ++i) {
    qlo = glm::min(qlo, quarter.vertices[i]), qhi = glm::max(qhi, quarter.vertices[i]);
    CHECK(quarter.vertices[i].y == rest.vertices[i].y);
  }
  CHECK(qhi.x - qlo.x == Approx(0.25f));
  CHECK(qhi.z - qlo.z == Approx(0.5f));
  CHECK_THROWS_WITH(SpinningMesh(TriangleMesh{}, params, "empty.ply"), Catch::Contains("empty.ply"));
  CHECK_THROWS_AS(make_spinning_mesh_stage(box, params, "box", SimBackend::Cuda), DeviceError);
}

}  // namespace meniscus::sim::raytrace
