// Sample weights and the exact gradient of P: the weighted octree and walk against the direct
// weighted sum, the walk's gradient against differences of the direct sum, and area weights
// against the spacing of a plane sampled at two densities.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "sim/reconstruct/barnes_hut.h"
#include "sim/reconstruct/point_octree.h"
#include "sim/reconstruct/sample_weights.h"
#include "tests/sim/reconstruct/reconstruct_test_points.h"

using namespace meniscus::sim::reconstruct;

namespace {

// A sphere in a 128 cube with weights 0.5..4 (deterministic).
void weighted_cloud(std::vector<glm::vec3>& points, std::vector<float>& weights) {
  points = meniscus::test::sphere_samples(3000, glm::vec3(64.0f), 40.0f);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> w(0.5f, 4.0f);
  weights.resize(points.size());
  for (float& x : weights) x = w(rng);
}

}  // namespace

TEST_CASE("weighted octree: node weights add up and centroids are weighted means, and theta 0 is the direct sum",
          "[reconstruct]") {
  std::vector<glm::vec3> points;
  std::vector<float> weights;
  weighted_cloud(points, weights);
  const PointOctree tree(points, 7, weights);
  double total = 0.0;
  for (const float w : weights) total += w;
  CHECK(tree.nodes()[0].weight == Approx(total).epsilon(1e-5));
  for (const OctreeNode& node : tree.nodes()) {
    if (node.children == 0) continue;
    double sum = 0.0;
    glm::dvec3 moment(0.0);
    for (uint32_t c = 0; c < 8; ++c) {
      const OctreeNode& child = tree.nodes()[node.children + c];
      sum += child.weight;
      moment += double(child.weight) * glm::dvec3(child.centroid);
    }
    REQUIRE(sum == Approx(node.weight).epsilon(1e-5));
    REQUIRE(glm::length(moment / sum - glm::dvec3(node.centroid)) < 1e-3);
  }
  PotentialParams exact;
  exact.theta = 0.0f;
  const BarnesHut bh(tree, exact);
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(0.0f, 128.0f);
  for (int i = 0; i < 100; ++i) {
    const glm::vec3 x(u(rng), u(rng), u(rng));
    REQUIRE(bh.potential(x) == Approx(BarnesHut::direct_potential(points, x, exact, weights)).epsilon(1e-5));
  }
  CHECK_THROWS_AS(PointOctree(points, 7, std::vector<float>(3, 1.0f)), std::invalid_argument);
  std::vector<float> bad = weights;
  bad[7] = 0.0f;
  CHECK_THROWS_AS(PointOctree(points, 7, bad), std::invalid_argument);
}

TEST_CASE("Barnes-Hut gradient: the walk's exact gradient matches differences of the direct sum", "[reconstruct]") {
  std::vector<glm::vec3> points;
  std::vector<float> weights;
  weighted_cloud(points, weights);
  const PointOctree tree(points, 7, weights);
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> u(10.0f, 118.0f);
  for (const float theta : {0.0f, 0.5f}) {
    PotentialParams params;
    params.theta = theta;
    const BarnesHut bh(tree, params);
    double worst = 0.0;
    for (int i = 0; i < 100; ++i) {
      const glm::vec3 x(u(rng), u(rng), u(rng));
      const PotentialSample s = bh.sample(x);
      REQUIRE(s.value == Approx(bh.potential(x)).epsilon(1e-6));
      glm::dvec3 difference;
      const float h = 1e-2f;
      for (int a = 0; a < 3; ++a) {
        glm::vec3 e(0.0f);
        e[a] = h;
        difference[a] = (BarnesHut::direct_potential(points, x + e, params, weights) -
                         BarnesHut::direct_potential(points, x - e, params, weights)) / (2.0 * h);
      }
      const double cosine = glm::dot(s.gradient, difference) / (glm::length(s.gradient) * glm::length(difference));
      worst = std::max(worst, std::acos(std::min(1.0, cosine)) * 180.0 / 3.14159265358979);
      if (theta == 0.0f) REQUIRE(glm::length(s.gradient - difference) < 1e-3 * glm::length(difference));
    }
    INFO("theta " << theta);
    CHECK(worst < (theta == 0.0f ? 0.1 : 5.0));
  }
}

TEST_CASE("area weights: a plane sampled at two spacings weighs as the area per sample", "[reconstruct]") {
  // Spacing 1 on x < 0 and 2 on x >= 0: away from the seam, weights 1 and 4 (median 1).
  std::vector<glm::vec3> points;
  for (int y = -40; y <= 40; ++y)
    for (int x = -40; x < 0; ++x) points.emplace_back(float(x), float(y), 0.0f);
  const size_t fine = points.size();
  for (int y = -40; y <= 40; y += 2)
    for (int x = 0; x <= 80; x += 2) points.emplace_back(float(x), float(y), 0.0f);
  points.emplace_back(0.0f, 0.0f, 500.0f);  // an outlier: its neighbours are far, its weight clamped
  SampleWeightStats stats;
  const std::vector<float> w = area_weights(points, 16, &stats);
  REQUIRE(w.size() == points.size());
  CHECK(stats.median_radius > 2.0f);
  CHECK(stats.median_radius < 2.5f);  // r_16 on a unit grid: the 16th neighbour at √5 ≈ 2.24
  for (size_t i = 0; i < points.size() - 1; ++i) {
    const glm::vec3 p = points[i];
    if (std::abs(p.y) > 30.0f || (p.x > -10.0f && p.x < 10.0f) || p.x < -30.0f || p.x > 70.0f) continue;
    if (i < fine) REQUIRE(w[i] == Approx(1.0f).margin(0.1));
    else REQUIRE(w[i] == Approx(4.0f).epsilon(0.1));
  }
  CHECK(w.back() == kMaxWeightRatio);
  // Too few points to have k neighbours: every weight is 1.
  const std::vector<float> few = area_weights(meniscus::test::sphere_samples(10, glm::vec3(0.0f), 1.0f), 16);
  for (const float x : few) CHECK(x == 1.0f);
}
