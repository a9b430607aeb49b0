// The fit of the surface to the samples (sample_fit.h): a sphere's level set built 0.4 voxels
// off its samples ends on them, between them too; a sample the fit could reach only by making a
// part of its own is left where it is.
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "sim/levelset/level_set_builder.h"
#include "tests/sim/reconstruct/reconstruct_test_points.h"
#include "sim/reconstruct/sample_fit.h"
#include "sim/reconstruct/surface_error.h"

using namespace meniscus::sim;

namespace {

// 6-connected regions of inside voxels (or 26-connected outside ones) in [lo, hi), a voxel
// of a missing tile taking the side the band leaves it on.
int regions(const levelset::SortedTileList& list, glm::ivec3 lo, glm::ivec3 hi, bool inside) {
  const glm::ivec3 n = hi - lo;
  const auto index = [&](glm::ivec3 v) { return size_t((v.z * n.y + v.y) * n.x + v.x); };
  std::vector<char> member(size_t(n.x) * n.y * n.z);
  for (int z = 0; z < n.z; ++z)
    for (int y = 0; y < n.y; ++y)
      for (int x = 0; x < n.x; ++x) {
        member[index({x, y, z})] = levelset::inside_at(list, lo + glm::ivec3(x, y, z)) == inside;
      }
  int count = 0;
  std::vector<glm::ivec3> stack;
  for (int z = 0; z < n.z; ++z)
    for (int y = 0; y < n.y; ++y)
      for (int x = 0; x < n.x; ++x) {
        if (!member[index({x, y, z})]) continue;
        ++count;
        member[index({x, y, z})] = 0;
        stack.push_back({x, y, z});
        while (!stack.empty()) {
          const glm::ivec3 v = stack.back();
          stack.pop_back();
          for (int d = 0; d < 27; ++d) {
            const glm::ivec3 o(d % 3 - 1, d / 3 % 3 - 1, d / 9 - 1);
            if (inside && std::abs(o.x) + std::abs(o.y) + std::abs(o.z) != 1) continue;
            const glm::ivec3 w = v + o;
            if (glm::any(glm::lessThan(w, glm::ivec3(0))) || glm::any(glm::greaterThanEqual(w, n)) || !member[index(w)]) continue;
            member[index(w)] = 0;
            stack.push_back(w);
          }
        }
      }
  return count;
}

}  // namespace

TEST_CASE("sample fit: a sphere built 0.4 voxels off its samples ends on them", "[reconstruct][fit]") {
  const glm::vec3 centre(40.3f, 40.6f, 39.8f);
  const float radius = 12.0f;
  levelset::SortedTileList list(1.5f);
  levelset::build_from_sdf(
      list, [&](glm::vec3 p) { return glm::length(p - centre) - (radius + 0.4f); }, glm::ivec3(12), glm::ivec3(68));
  const std::vector<glm::vec3> samples = meniscus::test::sphere_samples(600, centre, radius);
  const size_t tiles = list.size();

  const reconstruct::SampleFitReport report = reconstruct::fit_to_samples(list, samples, {});
  CHECK(report.fitted == samples.size());
  CHECK(report.mean_residual_before == Approx(0.4).margin(0.05));
  CHECK(report.mean_residual_after < 0.03);
  CHECK(reconstruct::mean_abs_phi(list, samples) < 0.03);
  // Between the samples too: the fit moved the surface, not the samples' cells only.
  const std::vector<glm::vec3> between = meniscus::test::sphere_samples(97, centre, radius);
  CHECK(reconstruct::mean_abs_phi(list, between) < 0.06);
  CHECK(list.size() == tiles);
  CHECK(list.check_invariants().empty());
  CHECK(regions(list, glm::ivec3(0), glm::ivec3(80), true) == 1);
  CHECK(regions(list, glm::ivec3(0), glm::ivec3(80), false) == 1);
}

TEST_CASE("sample fit: a sample above a shallow φ is reached by the surface, not by a part of its own", "[reconstruct][fit]") {
  // φ = 0.18 times the distance to a sphere: a sample 5 voxels out reads 0.9, within reach. The
  // voxels around it would change side first, a speck apart from the sphere; they may only once
  // the surface has grown out to them.
  const glm::vec3 centre(40.0f);
  const float radius = 12.0f;
  levelset::SortedTileList list(1.5f);
  levelset::build_from_sdf(
      list, [&](glm::vec3 p) { return 0.18f * (glm::length(p - centre) - radius); }, glm::ivec3(8), glm::ivec3(72));
  const glm::vec3 far = centre + (radius + 5.0f) * glm::normalize(glm::vec3(0.2f, 0.3f, 1.0f));
  const glm::vec3 near = centre + (radius + 0.5f) * glm::normalize(glm::vec3(-0.4f, 1.0f, 0.1f));
  const std::vector<glm::vec3> samples{far, near};
  REQUIRE(regions(list, glm::ivec3(0), glm::ivec3(80), true) == 1);
  REQUIRE(regions(list, glm::ivec3(0), glm::ivec3(80), false) == 1);
  reconstruct::fit_to_samples(list, samples, {});
  CHECK(std::abs(reconstruct::interpolate_phi(list, far)) < 0.1f);
  CHECK(std::abs(reconstruct::interpolate_phi(list, near)) < 0.02f);  // the near one fitted
  CHECK(regions(list, glm::ivec3(0), glm::ivec3(80), true) == 1);
  CHECK(regions(list, glm::ivec3(0), glm::ivec3(80), false) == 1);
  CHECK(list.check_invariants().empty());
}
