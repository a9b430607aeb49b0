// Eq. 1 beyond curvature: advection by an external velocity and motion by a normal speed,
// against analytic solutions, with the list's invariants checked after every management step.
#include <catch2/catch.hpp>

#include <cmath>

#include "sim/levelset/evolution.h"
#include "sim/levelset/level_set_measures.h"
#include "tests/sim/levelset/levelset_test_helpers.h"

namespace meniscus::sim::levelset {
namespace {

using testing::list_problems;
using testing::max_crossing_error;
using testing::sphere;

struct Outcome {
  double centroid_error;  // |centroid displacement − u t|, voxels
  double radius_error;    // |mean crossing distance − r|, voxels
  double shape_error;     // max |sdf| at the crossings, voxels
  double volume_error;    // relative, against the initial measured volume
  int steps;
};

// Translates a sphere of radius r by U = u for time t; the exact answer is the same sphere
// moved by u t.
Outcome translate(Scheme scheme, float gamma, glm::vec3 centre, float r, glm::vec3 u, float t, glm::ivec3 domain) {
  SortedTileList list(gamma);
  build_from_sdf(list, sphere(centre, r), glm::ivec3(0), domain);
  const InsideMoments start = inside_moments(list);
  EvolutionParams params;
  params.scheme = scheme;
  params.velocity = constant_velocity(u);
  LevelSetEvolution evolution(params);
  double time = 0;
  int steps = 0;
  while (t - time > 1e-6) {
    time += evolution.step(list, float(time), float(t - time));
    ++steps;
    INFO("step " << steps << ": " << list_problems(list));
    REQUIRE(list_problems(list).empty());
  }
  const glm::vec3 moved = centre + u * t;
  const InsideMoments m = inside_moments(list);
  // The centroid's displacement, not its position: the volume measure's own bias cancels.
  return {glm::length(m.centroid - start.centroid - glm::dvec3(u * t)), std::abs(mean_crossing_distance(list, moved) - r),
          max_crossing_error(list, sphere(moved, r)), std::abs(m.volume / start.volume - 1.0), steps};
}

}  // namespace

TEST_CASE("a sphere advected by a constant velocity moves by u t and keeps its shape", "[levelset][advection]") {
  const glm::vec3 centre(20.3f, 21.7f, 25.4f), u(2.0f, 1.0f, -0.5f);
  const float r = 10.0f, t = 4.0f;  // 9.2 voxels of travel, oblique to the grid
  // γ = 3 gives WENO5's 3-voxel stencil true distances around the interface; at the default
  // γ = 1.5 the stencils of interface voxels reach the clamp at ±γ, which costs accuracy
  // (a lag of a few hundredths of a voxel along the flow) but not stability.
  struct Case {
    float gamma;
    double centroid, radius, shape, volume;  // bounds, voxels (volume: relative)
  };
  for (const Case& c : {Case{3.0f, 0.01, 0.015, 0.03, 1e-3}, Case{1.5f, 0.1, 0.015, 0.2, 1e-3}}) {
    const Outcome weno = translate(Scheme::kWeno5, c.gamma, centre, r, u, t, {48, 40, 40});
    INFO("WENO5/RK3, gamma " << c.gamma << ", " << weno.steps << " steps: centroid error " << weno.centroid_error
                             << ", radius error " << weno.radius_error << ", max surface error " << weno.shape_error
                             << ", volume error " << weno.volume_error);
    CHECK(weno.centroid_error < c.centroid);
    CHECK(weno.radius_error < c.radius);
    CHECK(weno.shape_error < c.shape);
    CHECK(weno.volume_error < c.volume);
  }
}

TEST_CASE("WENO5/RK3 beats first-order upwind on the same advection", "[levelset][advection]") {
  const glm::vec3 centre(14.6f, 15.2f, 14.9f), u(1.5f, 1.0f, 1.25f);
  const float r = 6.0f, t = 4.0f;
  const Outcome upwind = translate(Scheme::kUpwind, 1.5f, centre, r, u, t, {40, 40, 40});
  const Outcome weno = translate(Scheme::kWeno5, 1.5f, centre, r, u, t, {40, 40, 40});
  INFO("upwind: radius error " << upwind.radius_error << ", max surface error " << upwind.shape_error
                               << ", volume error " << upwind.volume_error);
  INFO("WENO5:  radius error " << weno.radius_error << ", max surface error " << weno.shape_error
                               << ", volume error " << weno.volume_error);
  // First-order upwinding is diffusive: the small sphere shrinks and rounds off its surface.
  CHECK(upwind.volume_error > 4 * weno.volume_error);
  CHECK(upwind.shape_error > 2 * weno.shape_error);
  CHECK(upwind.radius_error > 4 * weno.radius_error);
}

TEST_CASE("a normal speed F grows a sphere as r = r0 + F t", "[levelset][speed]") {
  const glm::vec3 centre(23.6f, 24.2f, 23.9f);
  const float r0 = 8.0f, f = 1.0f, t = 8.0f;
  struct Case {
    Scheme scheme;
    float gamma;
    double radius, shape;  // bounds, voxels
  };
  for (const Case& c : {Case{Scheme::kWeno5, 3.0f, 0.02, 0.05}, Case{Scheme::kWeno5, 1.5f, 0.08, 0.2},
                        Case{Scheme::kUpwind, 1.5f, 0.35, 0.5}}) {
    const Scheme scheme = c.scheme;
    SortedTileList list(c.gamma);
    build_from_sdf(list, sphere(centre, r0), glm::ivec3(0), glm::ivec3(48));
    EvolutionParams params;
    params.scheme = scheme;
    params.normal_speed = constant_speed(f);
    LevelSetEvolution evolution(params);
    double time = 0, worst = 0;
    int steps = 0;
    while (t - time > 1e-6) {
      time += evolution.step(list, float(time), float(t - time));
      REQUIRE(list_problems(list).empty());
      if (++steps % 8 == 0) worst = std::max(worst, std::abs(mean_crossing_distance(list, centre) - (r0 + f * time)));
    }
    worst = std::max(worst, std::abs(mean_crossing_distance(list, centre) - (r0 + f * t)));
    const double shape = max_crossing_error(list, sphere(centre, r0 + f * t));
    INFO((scheme == Scheme::kWeno5 ? "WENO5" : "upwind") << ", gamma " << c.gamma << ", " << steps
                                                         << " steps: worst radius error " << worst
                                                         << ", final max surface error " << shape);
    CHECK(worst < c.radius);
    CHECK(shape < c.shape);
  }
}

// EvolutionParams::evolves: the tiles it leaves out keep their values while the rest of the
// front moves (a repass of a reconstruction, reconstruct/free_tiles.h), but for the snap to ±γ
// that every step gives values a hair inside the band's edge (TvdRungeKutta).
TEST_CASE("a sphere grown on one side only: the tiles left out keep their values", "[levelset][speed]") {
  const glm::vec3 centre(23.6f, 24.2f, 23.9f);
  SortedTileList list(1.5f);
  build_from_sdf(list, sphere(centre, 8.0f), glm::ivec3(0), glm::ivec3(48));
  const auto evolving = [](TileKey key) { return coord_of(key).x >= 6; };  // voxels x >= 24
  std::vector<std::pair<TileKey, std::vector<float>>> frozen;
  for (const TileEntry& e : list.active())
    if (!evolving(e.key)) {
      frozen.emplace_back(e.key, std::vector<float>(kTileVoxels));
      list.read(e.id, frozen.back().second.data());
    }
  const double volume = inside_moments(list).volume;
  EvolutionParams params;
  params.scheme = Scheme::kUpwind;
  params.normal_speed = constant_speed(1.0f);
  params.evolves = evolving;
  LevelSetEvolution evolution(params);
  for (double time = 0; 4.0 - time > 1e-6;) {
    time += evolution.step(list, float(time), float(4.0 - time));
    REQUIRE(list_problems(list).empty());
  }
  size_t kept = 0;
  for (const auto& [key, values] : frozen) {
    const auto at = list.find(key);
    if (!at) continue;
    std::vector<float> now(kTileVoxels);
    list.read(list.active()[*at].id, now.data());
    for (int v = 0; v < kTileVoxels; ++v)
      if (now[v] != values[v]) {
        INFO("tile " << key << " voxel " << v << ": " << values[v] << " -> " << now[v]);
        CHECK(std::abs(now[v]) == 1.5f);
        CHECK(std::abs(now[v] - values[v]) <= kDefaultBandSnap);
      }
    ++kept;
  }
  CHECK(kept == frozen.size());
  // The half beyond x = 24 grew from radius 8 to 12: about 2.2 times the volume in all.
  const double grown = inside_moments(list).volume / volume;
  INFO("volume ratio " << grown);
  CHECK(grown > 1.8);
  CHECK(grown < 2.6);
}

}  // namespace meniscus::sim::levelset
