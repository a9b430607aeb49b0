// The Stanford bunny scan's points (scenes/data/vtk-data/bunny_points.ply): the paper's error E
// per level, at most 0.1% of the bounding-box diagonal at the finest level run here, and the
// samples' distances to the extracted surface, which see what E cannot: the ears, thinner than
// the start level holds, pinch off there and come back only as lost samples put back, and stay
// closer to them where those are held.
#include <catch2/catch.hpp>

#include <cstdio>

#include "sim/common/mesh_reader.h"
#include "sim/reconstruct/reconstruction.h"
#include "sim/reconstruct/surface_distance.h"

using namespace meniscus::sim::reconstruct;

TEST_CASE("reconstruction: bunny points, levels 5..8, E <= 0.1% at level 8", "[reconstruct][bunny][slow]") {
  // ctest runs from the source root (tests/CMakeLists.txt), where the points ship with the scenes.
  const meniscus::sim::TriangleMesh cloud = meniscus::sim::read_mesh("scenes/data/vtk-data/bunny_points.ply");
  REQUIRE(cloud.vertices.size() == 35947);
  std::vector<glm::vec3> points;
  for (const auto& v : cloud.vertices) points.emplace_back(v[0], v[1], v[2]);
  ReconstructionParams params;
  params.coarsest = 5;
  params.finest = 8;
  const Reconstruction r = reconstruct_surface(points, params, "bunny", [](const LevelReport& l) {
    std::printf("bunny level %d%s: %d iterations%s, %zu tiles, %.2f s (P %.0f ms), mean |phi| %.3f voxels, E %.4f%%\n",
                l.level, l.pass ? " (repass)" : "", l.iterations, l.converged ? "" : " (not converged)", l.tiles,
                l.seconds, l.potential_ms, l.mean_abs_phi, l.error_percent);
    std::fflush(stdout);
  });
  REQUIRE(r.levels.size() == 5);  // levels 5..8 and the repass of level 8, where samples were lost
  CHECK(r.levels.back().pass == 1);
  for (size_t i = 1; i < r.levels.size(); ++i) CHECK(r.levels[i].error_percent < r.levels[i - 1].error_percent);
  CHECK(r.levels.back().converged);
  CHECK(r.levels.back().error_percent <= 0.1);

  const SurfaceAccuracy a = surface_accuracy(extract_surface(r, "bunny"), points, r.frame.diagonal());
  std::printf("bunny surface: mean distance %.4f%%, worst %.3f%% of the diagonal\n", a.mean_percent, a.max_percent);
  // Measured 0.0045 and 0.410; 0.0056 and 1.725 without the repass of level 8, where the front
  // had carved past samples at the front paw's sole (0.0058 and 1.918 before a cavity opened a
  // fold at level 7): without the fit to the samples as well 0.0261 and 2.235, without the gap
  // slowdown as well 0.0265 and 2.249 (0.031 with put-back samples not held, 1.41 with the ears
  // lost; 23.6 at an ear tip).
  CHECK(a.mean_percent <= 0.01);
  CHECK(a.max_percent <= 0.6);
}
