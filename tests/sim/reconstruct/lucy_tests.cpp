// Lucy's points (the vertices of scenes/data/vtk-data/lucy.ply, faces unused): the paper's error
// E at level 7, where the paper starts Lucy (Table 4), against the set-up that lost her: a start
// at level 5, where every limb and even the pedestal is thinner than the few voxels a level set
// can hold, with the paper's unweighted P and central differences (the surface shrank through
// the samples and the tile-age test stopped it half-way, E = 0.82%).
#include <catch2/catch.hpp>

#include <cstdio>

#include "sim/common/mesh_reader.h"
#include "sim/reconstruct/reconstruction.h"

using namespace meniscus::sim::reconstruct;

namespace {

std::vector<glm::vec3> lucy_points() {
  // ctest runs from the source root (tests/CMakeLists.txt), where Lucy ships with the scenes.
  const meniscus::sim::TriangleMesh mesh = meniscus::sim::read_mesh("scenes/data/vtk-data/lucy.ply");
  std::vector<glm::vec3> points;
  for (const auto& v : mesh.vertices) points.emplace_back(v[0], v[1], v[2]);
  return points;
}

double reconstruct_lucy(const ReconstructionParams& params, const char* what) {
  const Reconstruction r = reconstruct_surface(lucy_points(), params, "lucy", [what](const LevelReport& l) {
    std::printf("lucy (%s) level %d: %d iterations%s, %zu tiles, %.2f s, mean |phi| %.3f voxels, E %.4f%%\n", what,
                l.level, l.iterations, l.converged ? "" : " (not converged)", l.tiles, l.seconds, l.mean_abs_phi,
                l.error_percent);
    std::fflush(stdout);
  });
  return r.levels.back().error_percent;
}

}  // namespace

TEST_CASE("reconstruction: Lucy's points at level 7, E <= 0.5%, down from 0.82%", "[reconstruct][lucy][slow]") {
  ReconstructionParams params;
  params.coarsest = 7;
  params.finest = 7;
  const double fixed = reconstruct_lucy(params, "weighted, exact gradient");
  CHECK(fixed <= 0.5);  // measured 0.45%

  ReconstructionParams before;
  before.coarsest = 5;
  before.finest = 7;
  before.weight_neighbours = 0;
  before.gradient = GradientScheme::kCentral;
  before.lost_distance = 0.0f;  // nor were lost samples put back
  const double lost = reconstruct_lucy(before, "as before: from level 5, unweighted, central differences");
  CHECK(lost > 1.5 * fixed);
}
