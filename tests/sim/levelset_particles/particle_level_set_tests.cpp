// The particle level set (sim/levelset/particle_level_set.h) against the shapes its particles
// fill: a lattice ball's zero crossings against the ball of the particles' volume, the band's
// tiles against the distance from that ball, the flags through cube records and a closed mesh,
// a lattice block's volume (and the CPU time of a build of ~64k particles), and bad input.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "engine/core/error.h"
#include "sim/histopyramid/record_mesh.h"
#include "sim/levelset/cube_records.h"
#include "sim/levelset/level_set_measures.h"
#include "sim/levelset/particle_level_set.h"
#include "tests/sim/levelset/levelset_test_helpers.h"
#include "tests/sim/levelset_particles/particle_sets.h"

namespace meniscus::sim::levelset {
namespace {

using Catch::Matchers::Contains;

constexpr float kRadius = 0.005f;  // particle radius (m): spacing 1 cm
constexpr float kSpacing = 2.0f * kRadius;

// The ball a lattice fills: particles of one lattice whose centres lie within `within` of a
// centre off the lattice's symmetry, and the radius of the ball of their volume.
struct Ball {
  glm::vec3 centre;
  std::vector<Particle> particles;
  double radius;  // metres
};

Ball lattice_ball(float within) {
  Ball b;
  b.centre = glm::vec3(0.2013f, 0.1987f, 0.2021f);
  b.particles = testing::lattice_ball(b.centre, within, kRadius);
  b.radius = testing::equivalent_radius(b.particles.size(), kRadius);
  return b;
}

ParticleLevelSetParams params_around(const Ball& b, float voxel_size, float kernel_radius) {
  ParticleLevelSetParams p;
  p.voxel_size = voxel_size;
  p.particle_radius = kRadius;
  p.kernel_radius = kernel_radius;
  fit_particle_grid(p, b.centre - float(b.radius), b.centre + float(b.radius));
  return p;
}

glm::vec3 to_metres(const ParticleLevelSetParams& p, glm::vec3 voxel) { return p.origin + voxel * p.voxel_size; }

struct CrossingErrors {
  size_t count = 0;
  double worst = 0, mean = 0;  // metres: max |error| and mean signed error
};

// Every zero crossing of φ along a grid edge between stored voxels (linear interpolation), its
// distance from the ball's centre against the ball's radius.
CrossingErrors crossing_errors(const SortedTileList& list, const ParticleLevelSetParams& p, const Ball& b) {
  CrossingErrors out;
  for (const TileEntry& e : list.active()) {
    const TileCoord c = coord_of(e.key);
    for (int v = 0; v < kTileVoxels; ++v) {
      const glm::ivec3 at = glm::ivec3(c.x, c.y, c.z) * kTileSide + glm::ivec3(v & 3, v >> 2 & 3, v >> 4);
      const float a = list.value(e.id, v);
      for (int axis = 0; axis < 3; ++axis) {
        glm::ivec3 next = at;
        ++next[axis];
        const std::optional<float> bv = value_at(list, next);
        if (!bv || (a < 0) == (*bv < 0)) continue;
        glm::vec3 x(at);
        x[axis] += a / (a - *bv);
        const double error = double(glm::length(to_metres(p, x) - b.centre)) - b.radius;
        out.worst = std::max(out.worst, std::abs(error));
        out.mean += error;
        ++out.count;
      }
    }
  }
  if (out.count) out.mean /= double(out.count);
  return out;
}

// The largest, over listed tiles, of the distance (voxels) from the ball's sphere to the
// tile's nearest voxel: how far from the surface the band reaches.
double farthest_tile(const SortedTileList& list, const ParticleLevelSetParams& p, const Ball& b) {
  double farthest = 0;
  for (const TileEntry& e : list.active()) {
    const TileCoord c = coord_of(e.key);
    double nearest = 1e30;
    for (int v = 0; v < kTileVoxels; ++v) {
      const glm::vec3 x = glm::vec3(c.x, c.y, c.z) * float(kTileSide) + glm::vec3(v & 3, v >> 2 & 3, v >> 4);
      nearest = std::min(nearest, std::abs(double(glm::length(to_metres(p, x) - b.centre)) - b.radius) / p.voxel_size);
    }
    farthest = std::max(farthest, nearest);
  }
  return farthest;
}

// Cube records from the list, their mesh, and its edge census.
EdgeCensus record_census(const SortedTileList& list, size_t& triangles) {
  CubeRecordSet set;
  generate_cube_records(list, set);
  const IndexedMesh mesh = extract_record_mesh(set, glm::vec3(set.origin), 1.0f);
  triangles = mesh.triangles.size();
  return edge_census(mesh);
}

}  // namespace

TEST_CASE("particle level set: a lattice ball's zero crossings lie within half a spacing of its ball", "[levelset][particles]") {
  // Kernel radii of 1.5 and 2 spacings; voxels of one particle radius and of half of one.
  const auto [voxel_size, kernel_radius] =
      GENERATE(table<float, float>({{kRadius, 2.0f}, {kRadius, 1.5f}, {0.5f * kRadius, 2.0f}}));
  const Ball ball = lattice_ball(8.0f * kSpacing);
  const ParticleLevelSetParams params = params_around(ball, voxel_size, kernel_radius);
  ParticleLevelSetBuilder builder(params);
  SortedTileList list(1.0f);
  const ParticleLevelSetStats stats = builder.build(list, ball.particles);
  REQUIRE(stats.particles == ball.particles.size());
  const CrossingErrors errors = crossing_errors(list, params, ball);
  std::printf("lattice ball: %zu particles, radius %.4f m, voxel %.4f m, R %.1f spacings: %zu crossings, max |error| %.3f "
              "spacings, mean error %+.3f spacings, %zu tiles\n",
              ball.particles.size(), ball.radius, voxel_size, kernel_radius, errors.count, errors.worst / kSpacing,
              errors.mean / kSpacing, list.size());
  CHECK(errors.count > 1000);
  CHECK(errors.worst <= 0.5 * kSpacing);
}

TEST_CASE("particle level set: only the band's tiles remain, with flags that close the surface", "[levelset][particles]") {
  const Ball ball = lattice_ball(10.0f * kSpacing);
  const ParticleLevelSetParams params = params_around(ball, kRadius, 2.0f);
  ParticleLevelSetBuilder builder(params);
  SortedTileList list(1.0f);
  const ParticleLevelSetStats stats = builder.build(list, ball.particles);
  CHECK(list.gamma() == params.gamma);
  CHECK(testing::list_problems(list).empty());

  // Kept tiles hold a value within γ of the surface, or neighbour one that does: a voxel within
  // γ + √3, plus the surface's own error (half a spacing), of the ball's sphere.
  const double reach = params.gamma + std::sqrt(3.0) + 0.5 * kSpacing / params.voxel_size;
  const double farthest = farthest_tile(list, params, ball);
  const glm::vec3 centre_voxel = (ball.centre - params.origin) / params.voxel_size;
  std::printf("band: %u tiles marked, %zu kept (+%u created, -%u removed); the farthest lies %.2f voxels from the sphere "
              "(bound %.2f)\n",
              stats.marked_tiles, list.size(), stats.management.added, stats.management.removed, farthest, reach);
  CHECK(farthest <= reach);
  CHECK_FALSE(value_at(list, glm::ivec3(centre_voxel)).has_value());  // the interior is not listed
  CHECK(stats.management.removed > list.size() / 2);                   // ... though it was marked

  size_t triangles = 0;
  const EdgeCensus census = record_census(list, triangles);
  INFO("boundary edges " << census.boundary << ", non-manifold " << census.non_manifold);
  CHECK(census.watertight());
  CHECK(triangles > 1000);

  // Inside the band φ is a distance: |∇φ| near 1, and the enclosed volume that of the particles.
  const double defect = testing::mean_gradient_defect(list, params.gamma - 1.0f);
  const double volume = inside_moments(list).volume * std::pow(double(params.voxel_size), 3);
  const double particles_volume = double(ball.particles.size()) * std::pow(double(kSpacing), 3);
  std::printf("band: mean | |grad phi| - 1 | %.3f; volume %.4g m^3 against the particles' %.4g m^3 (%+.2f%%)\n", defect, volume,
              particles_volume, 100.0 * (volume / particles_volume - 1.0));
  CHECK(defect < 0.1);
  CHECK(std::abs(volume / particles_volume - 1.0) < 0.05);
}

TEST_CASE("particle level set: smoothing keeps the surface closed and in place", "[levelset][particles]") {
  const Ball ball = lattice_ball(8.0f * kSpacing);
  ParticleLevelSetParams params = params_around(ball, kRadius, 2.0f);
  params.smoothing_steps = 4;
  ParticleLevelSetBuilder builder(params);
  SortedTileList list(1.0f);
  builder.build(list, ball.particles);
  CHECK(testing::list_problems(list).empty());
  const CrossingErrors errors = crossing_errors(list, params, ball);
  std::printf("smoothed lattice ball (4 steps): max |error| %.3f spacings, mean %+.3f\n", errors.worst / kSpacing,
              errors.mean / kSpacing);
  CHECK(errors.worst <= 0.5 * kSpacing);
  size_t triangles = 0;
  CHECK(record_census(list, triangles).watertight());
}

TEST_CASE("particle level set: a lattice block's volume, and the CPU time of a 64k-particle build", "[levelset][particles]") {
  const glm::ivec3 cells(40, 40, 40);
  const glm::vec3 lo(0.1f, 0.1f, 0.1f);
  const std::vector<Particle> block = testing::lattice_box(lo, cells, kRadius);
  ParticleLevelSetParams params;
  params.voxel_size = kRadius;
  params.particle_radius = kRadius;
  fit_particle_grid(params, lo, lo + glm::vec3(cells) * kSpacing);
  ParticleLevelSetBuilder builder(params);
  SortedTileList list(1.0f);
  double best = 1e30;
  for (int run = 0; run < 3; ++run) {
    const auto start = std::chrono::steady_clock::now();
    builder.build(list, block);
    best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  const double volume = inside_moments(list).volume * std::pow(double(params.voxel_size), 3);
  const double block_volume = double(block.size()) * std::pow(double(kSpacing), 3);
  std::printf("lattice block: %zu particles, %zu tiles, volume %+.2f%% of the particles'; CPU build %.1f ms (best of 3)\n",
              block.size(), list.size(), 100.0 * (volume / block_volume - 1.0), best);
  CHECK(testing::list_problems(list).empty());
  CHECK(std::abs(volume / block_volume - 1.0) < 0.05);
}

TEST_CASE("particle level set: particles outside the grid are dropped and counted, and none make an empty list",
          "[levelset][particles]") {
  ParticleLevelSetParams params;
  params.voxel_size = kRadius;
  params.particle_radius = kRadius;
  fit_particle_grid(params, glm::vec3(0.0f), glm::vec3(0.1f));
  ParticleLevelSetBuilder builder(params);
  SortedTileList list(1.0f);
  std::vector<Particle> particles = {testing::particle_at(glm::vec3(0.05f)), testing::particle_at(glm::vec3(5.0f)),
                                     testing::particle_at(glm::vec3(-3.0f, 0.05f, 0.05f))};
  particles[2].position[1] = std::nanf("");
  const ParticleLevelSetStats stats = builder.build(list, particles);
  CHECK(stats.particles == 1);
  CHECK(stats.dropped == 2);
  CHECK(list.size() > 0);
  CHECK(testing::list_problems(list).empty());

  const ParticleLevelSetStats none = builder.build(list, {});
  CHECK(none.particles == 0);
  CHECK(list.size() == 0);
  CHECK(list.check_invariants().empty());
}

TEST_CASE("particle level set: bad parameters are input errors naming the field", "[levelset][particles]") {
  ParticleLevelSetParams good;
  good.voxel_size = 0.01f;
  good.particle_radius = 0.01f;
  good.voxels = glm::ivec3(64);
  CHECK_NOTHROW(particle_grid_shape(good));
  const auto rejects = [&](auto change, const char* field) {
    ParticleLevelSetParams p = good;
    change(p);
    CHECK_THROWS_WITH(ParticleLevelSetBuilder(p), Contains(field));
    CHECK_THROWS_AS(particle_grid_shape(p), InputError);
  };
  rejects([](ParticleLevelSetParams& p) { p.voxel_size = 0.0f; }, "voxel_size");
  rejects([](ParticleLevelSetParams& p) { p.particle_radius = -1.0f; }, "particle_radius");
  rejects([](ParticleLevelSetParams& p) { p.kernel_radius = 0.5f; }, "kernel_radius");
  rejects([](ParticleLevelSetParams& p) { p.gamma = 0.5f; }, "gamma");
  rejects([](ParticleLevelSetParams& p) { p.voxels = glm::ivec3(64, 0, 64); }, "voxels");
  rejects([](ParticleLevelSetParams& p) { p.voxels = glm::ivec3(1 << 15); }, "voxels");
  rejects([](ParticleLevelSetParams& p) { p.smoothing_steps = 2, p.smoothing_alpha = 0.0f; }, "smoothing_alpha");
}

}  // namespace meniscus::sim::levelset
