// Consistent normal orientation (Hoppe et al. 1992, as used in Zhou et al. 2008, Appendix B).
// Sequential, as in the paper (the tree is built on the CPU there too); ties in the priority
// queue are broken by point numbers so the result is one and the same every run.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <queue>
#include <tuple>

#include <glm/geometric.hpp>

#include "sim/kdtree/point_cloud.h"

namespace meniscus::sim::kdtree {

uint32_t orient_normals(std::span<const glm::vec3> points, const KnnResult& neighbours, std::vector<glm::vec3>& normals) {
  const uint32_t n = uint32_t(points.size()), k = neighbours.k;
  if (n == 0) return 0;
  // The neighbour graph made symmetric, as adjacency lists (CSR).
  std::vector<uint32_t> degree(n + 1, 0);
  for (uint32_t i = 0; i < n; ++i)
    for (uint32_t j = 0; j < k; ++j) {
      const uint32_t other = neighbours.indices[size_t(i) * k + j];
      if (other == i) continue;
      ++degree[i + 1];
      ++degree[other + 1];
    }
  std::partial_sum(degree.begin(), degree.end(), degree.begin());
  std::vector<uint32_t> adjacent(degree[n]), fill(degree.begin(), degree.end() - 1);
  for (uint32_t i = 0; i < n; ++i)
    for (uint32_t j = 0; j < k; ++j) {
      const uint32_t other = neighbours.indices[size_t(i) * k + j];
      if (other == i) continue;
      adjacent[fill[i]++] = other;
      adjacent[fill[other]++] = i;
    }

  // Seeds in order of decreasing z (then index): each component starts at its highest point.
  std::vector<uint32_t> seeds(n);
  std::iota(seeds.begin(), seeds.end(), 0u);
  std::sort(seeds.begin(), seeds.end(), [&](uint32_t a, uint32_t b) {
    return points[a].z > points[b].z || (points[a].z == points[b].z && a < b);
  });
  using Edge = std::tuple<float, uint32_t, uint32_t>;  // cost, to, from
  std::priority_queue<Edge, std::vector<Edge>, std::greater<>> frontier;
  std::vector<uint8_t> done(n, 0);
  uint32_t components = 0;
  auto visit = [&](uint32_t v) {
    done[v] = 1;
    for (uint32_t e = degree[v]; e < degree[v + 1]; ++e) {
      const uint32_t w = adjacent[e];
      if (!done[w]) frontier.emplace(1.0f - std::abs(glm::dot(normals[v], normals[w])), w, v);
    }
  };
  for (uint32_t seed : seeds) {
    if (done[seed]) continue;
    ++components;
    if (normals[seed].z < 0.0f) normals[seed] = -normals[seed];
    visit(seed);
    while (!frontier.empty()) {
      const auto [cost, to, from] = frontier.top();
      frontier.pop();
      if (done[to]) continue;
      if (glm::dot(normals[to], normals[from]) < 0.0f) normals[to] = -normals[to];
      visit(to);
    }
  }
  return components;
}

}  // namespace meniscus::sim::kdtree
