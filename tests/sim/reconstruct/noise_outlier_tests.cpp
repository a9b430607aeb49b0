// Noise and outliers (Jalba et al. 2013, §4 and Fig. 11): a sphere's samples with Gaussian noise
// and 3% outliers, in small clumps scattered through the box, reconstruct close to the true
// sphere, measured against the analytic sphere rather than the noisy input.
//
// The paper credits the curvature term α with bypassing outliers. Here it does not: the inverse-
// distance field already averages the noise away, each clump of outliers keeps a bubble of its own
// (stray tiles) whatever α ≤ 1, and α only adds its inward bias (mean |φ| at the true sphere
// 0.094 voxels at α = 0, 0.106 at 0.3, 0.147 at 1). The test holds α = 0.1 (the default) to the
// same bounds as α = 0 and to at most that bias, so that a change that makes α pay shows here.
//
// Where α does pay is noise of about a voxel: the inverse-distance field follows the bumps and
// the surface comes out rough; curvature flow irons it. The second test measures that roughness
// as the spread of the surface's distance from the centre.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "sim/levelset/tile_key.h"
#include "sim/reconstruct/reconstruction.h"
#include "sim/reconstruct/surface_error.h"
#include "tests/sim/reconstruct/reconstruct_test_points.h"

using namespace meniscus::sim::reconstruct;
namespace levelset = meniscus::sim::levelset;

namespace {

constexpr int kFinest = 6;

struct NoisyResult {
  double truth_voxels = 0;   // mean |φ| at the noise-free sphere samples, level-6 voxels
  double truth_percent = 0;  // the same as % of the bounding-box diagonal (E against the truth)
  double input_percent = 0;  // E on the input itself, noise and outliers included
  size_t tiles = 0;
  size_t stray_tiles = 0;    // tiles whose centre is more than 4 voxels off the sphere
};

std::vector<glm::vec3> noisy_sphere(const std::vector<glm::vec3>& clean) {
  std::mt19937 rng(11);
  std::normal_distribution<float> noise(0.0f, 0.01f);  // 1% of the radius: 0.3 voxels at level 6
  std::vector<glm::vec3> points;
  for (const glm::vec3& p : clean) points.push_back(p + glm::vec3(noise(rng), noise(rng), noise(rng)));
  // 3% outliers in clumps of 6 (a voxel across), anywhere in the box but off the sphere.
  std::uniform_real_distribution<float> anywhere(-1.3f, 1.3f);
  std::normal_distribution<float> clump(0.0f, 0.015f);
  while (points.size() < clean.size() * 103 / 100) {
    const glm::vec3 c(anywhere(rng), anywhere(rng), anywhere(rng));
    if (std::abs(glm::length(c) - 1.0f) < 0.15f) continue;
    for (int i = 0; i < 6; ++i) points.push_back(c + glm::vec3(clump(rng), clump(rng), clump(rng)));
  }
  return points;
}

NoisyResult reconstruct_noisy(float alpha) {
  const std::vector<glm::vec3> clean = meniscus::test::sphere_samples(20000, glm::vec3(0.0f), 1.0f);
  ReconstructionParams params;
  params.coarsest = 4;
  params.finest = kFinest;
  params.alpha = alpha;
  const Reconstruction r = reconstruct_surface(noisy_sphere(clean), params, "noisy sphere");
  std::vector<glm::vec3> truth(clean.size());
  for (size_t i = 0; i < clean.size(); ++i) truth[i] = r.frame.voxel_of(glm::dvec3(clean[i]), kFinest);
  NoisyResult out;
  out.truth_voxels = mean_abs_phi(*r.list, truth);
  out.truth_percent = 100.0 * out.truth_voxels * r.frame.voxel_size(kFinest) / r.frame.diagonal();
  out.input_percent = r.levels.back().error_percent;
  out.tiles = r.list->size();
  const double h = r.frame.voxel_size(kFinest);
  for (const levelset::TileEntry& e : r.list->active()) {
    const levelset::TileCoord c = levelset::coord_of(e.key);
    const glm::vec3 centre = glm::vec3(c.x, c.y, c.z) * float(levelset::kTileSide) + 1.5f;
    const double off = glm::length(r.frame.world_of(centre, kFinest)) - 1.0;
    if (std::abs(off) > 4.0 * h) ++out.stray_tiles;
  }
  std::printf("noisy sphere, alpha %.2f: %zu tiles (%zu stray), mean |phi| at the true sphere %.3f voxels (E %.4f%%), "
              "E on the input %.4f%%\n",
              double(alpha), out.tiles, out.stray_tiles, out.truth_voxels, out.truth_percent, out.input_percent);
  std::fflush(stdout);
  return out;
}

}  // namespace

TEST_CASE("reconstruction: noise (1% of the radius) and 3% outliers stay within bounds, alpha 0.1 and 0",
          "[reconstruct][noise]") {
  const NoisyResult stiff = reconstruct_noisy(0.1f);
  const NoisyResult loose = reconstruct_noisy(0.0f);
  for (const NoisyResult& r : {stiff, loose}) {
    CHECK(r.truth_voxels < 0.2);   // measured 0.045 voxels
    CHECK(r.input_percent < 0.3);  // measured 0.186-0.187%
    // Measured 22%, clumps in bubbles: 16% before the finest level's repass, which also puts
    // back the two clumps within 0.16 of the sphere (4 voxels, among its samples: a part).
    CHECK(r.stray_tiles * 4 < r.tiles);
  }
  CHECK(stiff.truth_voxels < loose.truth_voxels + 0.05);  // α's inward bias stays small
}

namespace {

struct Roughness {
  double mean_radius = 0;  // world units (the true radius is 1)
  double spread = 0;       // standard deviation of the radius over the surface's crossings
  double voxel = 0;        // level-6 voxel size, world units
};

// The zero crossings of φ along grid edges inside each tile, in the world, as distances from
// the sphere's centre.
Roughness surface_roughness(float alpha, float noise) {
  const std::vector<glm::vec3> clean = meniscus::test::sphere_samples(20000, glm::vec3(0.0f), 1.0f);
  std::mt19937 rng(5);
  std::normal_distribution<float> radial(0.0f, noise);
  std::vector<glm::vec3> points;
  for (const glm::vec3& p : clean) points.push_back(p * (1.0f + radial(rng)));
  ReconstructionParams params;
  params.coarsest = 5;
  params.finest = kFinest;
  params.alpha = alpha;
  const Reconstruction r = reconstruct_surface(points, params, "rough sphere");
  std::vector<double> radii;
  for (const levelset::TileEntry& e : r.list->active()) {
    const levelset::TileCoord c = levelset::coord_of(e.key);
    float phi[levelset::kTileVoxels];
    r.list->read(e.id, phi);
    for (int v = 0; v < levelset::kTileVoxels; ++v) {
      const glm::ivec3 at(v % 4, v / 4 % 4, v / 16);
      for (int axis = 0; axis < 3; ++axis) {
        glm::ivec3 next = at;
        if (++next[axis] >= levelset::kTileSide) continue;
        const float a = phi[v], b = phi[levelset::SortedTileList::voxel_index(next.x, next.y, next.z)];
        if ((a < 0) == (b < 0)) continue;
        glm::vec3 crossing = glm::vec3(at) + glm::vec3(c.x, c.y, c.z) * float(levelset::kTileSide);
        crossing[axis] += a / (a - b);
        radii.push_back(glm::length(r.frame.world_of(crossing, kFinest)));
      }
    }
  }
  Roughness out;
  for (const double radius : radii) out.mean_radius += radius / double(radii.size());
  for (const double radius : radii) out.spread += (radius - out.mean_radius) * (radius - out.mean_radius) / double(radii.size());
  out.spread = std::sqrt(out.spread);
  out.voxel = r.frame.voxel_size(kFinest);
  std::printf("rough sphere (radial noise %.0f%%), alpha %.2f: %zu crossings, radius %.4f, spread %.4f (%.2f voxels)\n",
              100.0 * noise, double(alpha), radii.size(), out.mean_radius, out.spread, out.spread / out.voxel);
  std::fflush(stdout);
  return out;
}

}  // namespace

TEST_CASE("reconstruction: the curvature term irons out noise of about a voxel", "[reconstruct][noise][slow]") {
  // 3% of the radius is about 0.8 level-6 voxels.
  const Roughness plain = surface_roughness(0.0f, 0.03f);
  const Roughness smoothed = surface_roughness(1.0f, 0.03f);
  CHECK(smoothed.spread < 0.75 * plain.spread);
  // ...at the price of a bias inwards that stays well under a voxel.
  CHECK(std::abs(smoothed.mean_radius - plain.mean_radius) < 0.5 * plain.voxel);
  CHECK(std::abs(plain.mean_radius - 1.0) < plain.voxel);
}
