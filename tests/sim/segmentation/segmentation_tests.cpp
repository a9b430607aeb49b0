// The threshold segmentation (sim/levelset/segmentation.h) on the CPU backend, against closed
// forms: the data term's values, the ball a seed grows into (volume within a few per cent of
// 4/3 π r³, on isotropic and anisotropic scans), thresholds changed mid-run continuing from the
// current front, and bad parameters and volumes refused with the file named.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "engine/core/error.h"
#include "sim/levelset/level_set_measures.h"
#include "sim/levelset/segmentation.h"
#include "sim/levelset/threshold_speed.h"
#include "sim/levelset/upwind.h"
#include "tests/sim/segmentation/segmentation_test_volumes.h"

namespace meniscus::sim::levelset {
namespace {

using Catch::Matchers::Contains;
using testing::Shell;

constexpr float kGamma = 1.5f;

std::unique_ptr<Segmentation> seeded(const Volume& volume, const SegmentationGrid& grid, glm::vec3 seed_sample,
                                     const SegmentationParams& params, SimBackend backend = SimBackend::Cpu) {
  SortedTileList list(kGamma);
  const SeedSphere seed = seed_at_sample(volume, grid, seed_sample, 3.0f);
  build_from_spheres(list, std::span(&seed, 1), "test seed");
  return make_segmentation(volume, grid, std::move(list), params, backend);
}

double inside_mm3(const std::vector<uint8_t>& mask, const Volume& v) {
  return double(std::count(mask.begin(), mask.end(), uint8_t(1))) * v.spacing.x * v.spacing.y * v.spacing.z;
}

double ball_mm3(double r) { return 4.0 / 3.0 * std::numbers::pi * r * r * r; }

// The window [50, 150] of the test volumes, whose shells are 100 inside and fall to 0 outside.
SegmentationParams window_50_150() {
  SegmentationParams params;
  params.lower = 50.0f;
  params.upper = 150.0f;
  return params;
}

SegmentationStop until_rms(int max_steps, double rms) {
  SegmentationStop stop;
  stop.max_steps = max_steps;
  stop.rms = rms;
  return stop;
}

}  // namespace

TEST_CASE("segmentation: the data term is Lefohn's with the midpoint between the thresholds") {
  // ITK's rule and the paper's thresholds: G = I − I_lo below (I_lo + I_hi)/2, I_hi − I above.
  CHECK(threshold_data_term(0.3f, 0.3f, 0.55f, DataTerm::kLinear) == Approx(0.0f));
  CHECK(threshold_data_term(0.4f, 0.3f, 0.55f, DataTerm::kLinear) == Approx(0.1f));
  CHECK(threshold_data_term(0.425f, 0.3f, 0.55f, DataTerm::kLinear) == Approx(0.125f));
  CHECK(threshold_data_term(0.5f, 0.3f, 0.55f, DataTerm::kLinear) == Approx(0.05f));
  CHECK(threshold_data_term(0.9f, 0.3f, 0.55f, DataTerm::kLinear) == Approx(-0.35f));
  // The smooth variant keeps the sign and the slope at the thresholds, bounded by the half-width.
  CHECK(threshold_data_term(0.3f, 0.3f, 0.55f, DataTerm::kTanh) == Approx(0.0f).margin(1e-7));
  CHECK(threshold_data_term(50.0f, 0.3f, 0.55f, DataTerm::kTanh) == Approx(-0.125f));
  CHECK(threshold_data_term(0.301f, 0.3f, 0.55f, DataTerm::kTanh) == Approx(0.001f).epsilon(1e-3));
}

TEST_CASE("segmentation: trilinear sampling is exact on a linear field and clamps at the edge") {
  const glm::ivec3 dims(4, 3, 2);
  std::vector<float> f(size_t(dims.x) * dims.y * dims.z);
  for (int z = 0; z < dims.z; ++z)
    for (int y = 0; y < dims.y; ++y)
      for (int x = 0; x < dims.x; ++x) f[(size_t(z) * dims.y + y) * dims.x + x] = 1.0f + 2.0f * x - 3.0f * y + 5.0f * z;
  CHECK(sample_trilinear(f.data(), dims, {1.25f, 0.5f, 0.75f}) == Approx(1.0f + 2.5f - 1.5f + 3.75f));
  CHECK(sample_trilinear(f.data(), dims, {-4.0f, 0.0f, 0.0f}) == Approx(1.0f));
  CHECK(sample_trilinear(f.data(), dims, {3.0f, 2.0f, 9.0f}) == Approx(1.0f + 6.0f - 6.0f + 5.0f));
}

TEST_CASE("segmentation: a seed grows into the ball its thresholds select") {
  const float radius = 12.0f;
  const Volume v = testing::shells_volume({40, 40, 40}, glm::vec3(1.0f), glm::vec3(20.0f), {{radius, 100.0f}});
  const SegmentationGrid grid = segmentation_grid(v);
  const SegmentationParams params = window_50_150();
  auto s = seeded(v, grid, glm::vec3(20.0f), params);
  const SegmentationRun run = run_segmentation(*s, until_rms(5000, 0.002));
  INFO("steps " << run.steps << ", rms " << run.last.rms_change);
  CHECK(run.converged == SegmentationRun::Converged::kRms);
  CHECK(s->list().check_invariants().empty());
  // The intensity passes 50 at the ramp's middle, r = radius: the mask's volume and the level
  // set's own measure both match the ball within 3 %.
  const double expected = ball_mm3(radius);
  CHECK(inside_mm3(inside_mask(s->list(), v, grid), v) == Approx(expected).epsilon(0.03));
  CHECK(inside_moments(s->list()).volume == Approx(expected).epsilon(0.03));
}

TEST_CASE("segmentation: tile ages stop a seed once its ball is reached, not while it grows") {
  // Seed 004's §4.1 rule alone (no RMS tolerance): the front makes a tile at least every tile
  // side of travel while it grows from r = 3 to 12, so a threshold of twice that does not stop
  // it early (the volume says so); once it rests on the ramp, no tile is made and the rule ends
  // the run.
  const float radius = 12.0f;
  const Volume v = testing::shells_volume({40, 40, 40}, glm::vec3(1.0f), glm::vec3(20.0f), {{radius, 100.0f}});
  const SegmentationGrid grid = segmentation_grid(v);
  SegmentationParams params = window_50_150();
  auto s = seeded(v, grid, glm::vec3(20.0f), params);
  SegmentationStop stop;
  stop.max_steps = 5000;
  stop.tile_age = 2.0 * kTileSide;
  const SegmentationRun run = run_segmentation(*s, stop);
  INFO("steps " << run.steps << ", travel since a tile was made or dropped " << run.travel_since_tile_change);
  CHECK(run.converged == SegmentationRun::Converged::kTileAge);
  CHECK(run.steps < 5000);
  CHECK(inside_moments(s->list()).volume == Approx(ball_mm3(radius)).epsilon(0.03));
}

TEST_CASE("segmentation: tile ages do not stop a front that shrinks onto its ball") {
  // A seed sphere of radius 16 around a ball of 8: the front moves inwards, dropping tiles and
  // making none; the rule must wait until it rests on the ball.
  const Volume v = testing::shells_volume({40, 40, 40}, glm::vec3(1.0f), glm::vec3(20.0f), {{8.0f, 100.0f}});
  const SegmentationGrid grid = segmentation_grid(v);
  SegmentationParams params = window_50_150();
  SortedTileList list(kGamma);
  const SeedSphere seed = seed_at_sample(v, grid, glm::vec3(20.0f), 16.0f);
  build_from_spheres(list, std::span(&seed, 1), "test seed");
  auto s = make_segmentation(v, grid, std::move(list), params, SimBackend::Cpu);
  SegmentationStop stop;
  stop.max_steps = 5000;
  stop.tile_age = 2.0 * kTileSide;
  const SegmentationRun run = run_segmentation(*s, stop);
  INFO("steps " << run.steps);
  CHECK(run.converged == SegmentationRun::Converged::kTileAge);
  CHECK(inside_moments(s->list()).volume == Approx(ball_mm3(8.0)).epsilon(0.05));
}

TEST_CASE("segmentation: the flat-band skip reads every sample the stencils read and no corner") {
  // A block of +γ: flat. A change at any face or edge neighbour (curvature's mixed differences)
  // or along an axis within the upwind reach makes the voxel live; a corner does not.
  std::vector<float> block(7 * 7 * 7, kGamma);
  const int sy = 7, sz = 49;
  float* centre = block.data() + 3 + 3 * sy + 3 * sz;
  CHECK(flat_beyond_band(centre, sy, sz, 3, kGamma));
  for (int oz = -3; oz <= 3; ++oz)
    for (int oy = -3; oy <= 3; ++oy)
      for (int ox = -3; ox <= 3; ++ox) {
        const int axes = (ox != 0) + (oy != 0) + (oz != 0), far = std::max({std::abs(ox), std::abs(oy), std::abs(oz)});
        const bool read = (axes == 1) || (axes == 2 && far == 1) || axes == 0;
        float& sample = centre[ox + oy * sy + oz * sz];
        sample = kGamma - 0.25f;
        INFO("offset " << ox << "," << oy << "," << oz);
        CHECK(flat_beyond_band(centre, sy, sz, 3, kGamma) == !read);
        sample = kGamma;
      }
}

TEST_CASE("segmentation: the stiffness is the data term's slope along the normal") {
  // I = 3x + 5y - 2z: trilinear sampling is exact, its gradient is (3, 5, -2), and with the
  // linear term |dG/dI| = 1, so |∂F/∂n| = c0 |∇I·n| on any grid scale.
  const glm::ivec3 dims(6, 5, 4);
  std::vector<float> f(size_t(dims.x) * dims.y * dims.z);
  for (int z = 0; z < dims.z; ++z)
    for (int y = 0; y < dims.y; ++y)
      for (int x = 0; x < dims.x; ++x) f[(size_t(z) * dims.y + y) * dims.x + x] = 3.0f * x + 5.0f * y - 2.0f * z + 40.0f;
  ThresholdSpeed s;
  s.volume = f.data();
  s.dims = dims;
  s.scale = glm::vec3(0.5f);  // level-set voxels half a sample wide
  s.lower = 30.0f;
  s.upper = 70.0f;
  s.propagation = 0.8f;
  const glm::vec3 n = glm::normalize(glm::vec3(1.0f, 2.0f, 2.0f));
  const ThresholdSample sample = threshold_speed_along(s, glm::vec3(3.3f, 2.6f, 2.2f), n);
  CHECK(sample.stiffness == Approx(0.8f * 0.5f * std::abs(3.0f * n.x + 5.0f * n.y - 2.0f * n.z)));
  const glm::vec3 p = glm::vec3(3.3f, 2.6f, 2.2f) * 0.5f;
  CHECK(sample.speed == Approx(0.8f * threshold_data_term(3.0f * p.x + 5.0f * p.y - 2.0f * p.z + 40.0f, 30.0f, 70.0f,
                                                          DataTerm::kLinear)));
  // Where an axis is clamped at the volume's edge nothing varies along it.
  CHECK(trilinear_gradient(trilinear_cell(f.data(), dims, glm::vec3(5.0f, 1.5f, 1.5f))).x == 0.0f);
}

TEST_CASE("segmentation: an anisotropic scan is segmented on an isotropic grid") {
  const float radius = 10.0f;
  // Slices 2 mm apart, pixels 1 mm: the level set runs at 1 mm and samples between slices.
  const Volume v = testing::shells_volume({32, 32, 16}, {1.0f, 1.0f, 2.0f}, glm::vec3(16.0f), {{radius, 100.0f}});
  const SegmentationGrid grid = segmentation_grid(v);
  CHECK(grid.voxel_size == 1.0f);
  CHECK(grid.dims == glm::ivec3(32, 32, 31));
  SegmentationParams params = window_50_150();
  auto s = seeded(v, grid, {16.0f, 16.0f, 8.0f}, params);
  const SegmentationRun run = run_segmentation(*s, until_rms(5000, 0.002));
  INFO("steps " << run.steps << ", rms " << run.last.rms_change << ", front speed " << run.last.front_speed << ", dt " << run.last.dt);
  CHECK(run.converged == SegmentationRun::Converged::kRms);
  CHECK(inside_moments(s->list()).volume == Approx(ball_mm3(radius)).epsilon(0.03));
  CHECK(inside_mm3(inside_mask(s->list(), v, grid), v) == Approx(ball_mm3(radius)).epsilon(0.06));
}

TEST_CASE("segmentation: thresholds changed mid-run continue from the current front") {
  // An inner ball (100) inside a shell (200): [50, 150] stops at the inner ball; raising the
  // upper threshold to 250 lets the same front go on to the shell.
  const Volume v = testing::shells_volume({48, 48, 48}, glm::vec3(1.0f), glm::vec3(24.0f), {{8.0f, 100.0f}, {16.0f, 200.0f}});
  const SegmentationGrid grid = segmentation_grid(v);
  SegmentationParams params = window_50_150();
  auto s = seeded(v, grid, glm::vec3(24.0f), params);
  REQUIRE(run_segmentation(*s, until_rms(5000, 0.002)).converged == SegmentationRun::Converged::kRms);
  CHECK(inside_moments(s->list()).volume == Approx(ball_mm3(8.0)).epsilon(0.05));

  const std::vector<TileEntry> before = s->list().active();
  std::vector<float> phi_before(kTileVoxels), phi_after(kTileVoxels);
  s->list().read(before[0].id, phi_before.data());
  const int steps = s->steps();
  const double time = s->time();
  params.upper = 250.0f;
  s->set_params(params);
  // Nothing was rebuilt: the same tiles, values, step count and clock.
  const auto& after = s->list().active();
  REQUIRE(after.size() == before.size());
  CHECK(std::equal(before.begin(), before.end(), after.begin(),
                   [](const TileEntry& a, const TileEntry& b) { return a.key == b.key && a.id == b.id; }));
  s->list().read(before[0].id, phi_after.data());
  CHECK(phi_before == phi_after);
  CHECK(s->steps() == steps);
  CHECK(s->time() == time);

  const SegmentationRun more = run_segmentation(*s, until_rms(8000, 0.002));
  INFO("steps after the change " << more.steps << ", rms " << more.last.rms_change);
  CHECK(more.converged == SegmentationRun::Converged::kRms);
  CHECK(s->steps() == steps + more.steps);
  // The outer ramp falls from 200 to 0 over r in [15.5, 16.5]: it passes 50 at r = 16.25.
  CHECK(inside_moments(s->list()).volume == Approx(ball_mm3(16.25)).epsilon(0.03));
}

TEST_CASE("segmentation: a seed placed mid-run adds its ball where it lies outside and nothing inside") {
  SortedTileList list(kGamma);
  const SeedSphere big{glm::vec3(40.0f), 14.0f};
  build_from_spheres(list, std::span(&big, 1), "seeds");
  const double before = inside_moments(list).volume;
  CHECK(before == Approx(ball_mm3(14.0)).epsilon(0.01));
  // Deep inside, where no tile is stored: the new tiles must come out inside, adding nothing.
  add_sphere(list, {glm::vec3(40.0f), 3.0f}, "seed");
  CHECK(inside_moments(list).volume == Approx(before).epsilon(1e-3));
  // Apart from it: one more ball.
  add_sphere(list, {glm::vec3(40.0f, 40.0f, 70.0f), 5.0f}, "seed");
  CHECK(inside_moments(list).volume == Approx(before + ball_mm3(5.0)).epsilon(0.01));
  CHECK(list.check_invariants().empty());
}

TEST_CASE("segmentation: bad parameters and volumes are refused naming the file and the field") {
  Volume v = testing::shells_volume({16, 16, 16}, glm::vec3(1.0f), glm::vec3(8.0f), {{4.0f, 100.0f}});
  v.source = "head.nii.gz";
  const SegmentationGrid grid = segmentation_grid(v);
  SegmentationParams p;
  p.lower = 100.0f;
  p.upper = 100.0f;
  CHECK_THROWS_WITH(check_segmentation_params(p, v.source), Contains("head.nii.gz") && Contains("--lower"));
  p.upper = 150.0f;
  p.curvature = 1.0f;
  CHECK_THROWS_WITH(check_segmentation_params(p, v.source), Contains("--curvature"));
  p.curvature = 0.2f;
  p.lower = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_WITH(check_segmentation_params(p, v.source), Contains("--lower"));
  p.lower = 50.0f;
  v.values[100] = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_WITH(seeded(v, grid, glm::vec3(8.0f), p), Contains("head.nii.gz") && Contains("not a finite number"));
  SortedTileList list(kGamma);
  const SeedSphere bad{glm::vec3(8.0f), -1.0f};
  CHECK_THROWS_AS(build_from_spheres(list, std::span(&bad, 1), "seeds"), InputError);
  CHECK_THROWS_AS(build_from_spheres(list, {}, "seeds"), InputError);
}

}  // namespace meniscus::sim::levelset
