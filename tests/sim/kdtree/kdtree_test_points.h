#pragma once
// Point sets and a brute-force reference for the kd-tree tests.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/kdtree/knn.h"

namespace meniscus::sim::kdtree::test {

inline std::vector<glm::vec3> uniform_cube(size_t n, uint32_t seed, glm::vec3 offset = {0, 0, 0}, float size = 1.0f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(0.0f, size);
  std::vector<glm::vec3> p(n);
  for (auto& v : p) v = offset + glm::vec3(u(rng), u(rng), u(rng));
  return p;
}

// Gaussian clusters of very different widths: deep, unbalanced subtrees.
inline std::vector<glm::vec3> clusters(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> g(0.0f, 1.0f);
  std::uniform_real_distribution<float> u(-10.0f, 10.0f);
  std::vector<glm::vec3> p(n);
  glm::vec3 centre(0);
  float width = 1;
  for (size_t i = 0; i < n; ++i) {
    if (i % 500 == 0) {
      centre = glm::vec3(u(rng), u(rng), u(rng));
      width = std::pow(10.0f, u(rng) * 0.3f);
    }
    p[i] = centre + width * glm::vec3(g(rng), g(rng), g(rng));
  }
  return p;
}

inline double exact_distance(glm::vec3 a, glm::vec3 b) {
  const double dx = double(a.x) - b.x, dy = double(a.y) - b.y, dz = double(a.z) - b.z;
  return std::sqrt(dx * dx + dy * dy + dz * dz);
}

// Checks every row of `result` against brute force over `points`: the i-th distance within
// 1e-6 relative, and the index set equal up to ties at the k-th distance. Returns rows checked.
inline size_t check_against_brute_force(std::span<const glm::vec3> points, std::span<const glm::vec3> queries,
                                        const KnnResult& result, uint32_t k) {
  const uint32_t expected_k = std::min<uint32_t>(k, uint32_t(points.size()));
  REQUIRE(result.k == expected_k);
  REQUIRE(result.queries() == queries.size());
  std::vector<double> all(points.size());
  size_t bad_distance = 0, bad_set = 0;
  for (size_t q = 0; q < queries.size(); ++q) {
    for (size_t i = 0; i < points.size(); ++i) all[i] = exact_distance(points[i], queries[q]);
    std::vector<double> sorted = all;
    std::nth_element(sorted.begin(), sorted.begin() + (expected_k - 1), sorted.end());
    std::sort(sorted.begin(), sorted.begin() + expected_k);
    const double kth = sorted[expected_k - 1];
    std::vector<uint32_t> got(&result.indices[q * expected_k], &result.indices[q * expected_k] + expected_k);
    for (uint32_t j = 0; j < expected_k; ++j) {
      const double d = result.distances[q * expected_k + j];
      if (std::abs(d - sorted[j]) > 1e-6 * sorted[j]) ++bad_distance;
      if (j > 0 && result.distances[q * expected_k + j] < result.distances[q * expected_k + j - 1]) ++bad_distance;
    }
    std::sort(got.begin(), got.end());
    bool ok = std::adjacent_find(got.begin(), got.end()) == got.end();
    for (uint32_t i : got) ok = ok && i < points.size() && all[i] <= kth * (1 + 1e-6);
    for (size_t i = 0; i < points.size(); ++i)
      if (all[i] < kth * (1 - 1e-6)) ok = ok && std::binary_search(got.begin(), got.end(), uint32_t(i));
    bad_set += !ok;
  }
  INFO(bad_distance << " distances off by more than 1e-6 relative, " << bad_set << " rows with a wrong index set");
  CHECK(bad_distance == 0);
  CHECK(bad_set == 0);
  return queries.size();
}

}  // namespace meniscus::sim::kdtree::test
