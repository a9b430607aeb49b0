// The CPU search's per-cell candidates against the query both backends share, and both
// against brute force.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "sim/sph/sph_cell_candidates.h"
#include "sim/sph/sph_cell_sort.h"
#include "sim/sph/sph_neighbours.h"

namespace meniscus::sim::sph {

TEST_CASE("per-cell candidates give for_each_neighbour's lists, which hold every pair within the support",
          "[sph][neighbours]") {
  // Clustered and scattered points, some outside the grid (clamped into its edge cells).
  const float support = 0.04f;
  const GridShape grid = grid_over({0, 0, 0}, {0.3f, 0.2f, 0.25f}, support);
  const std::vector<uint32_t> rank = z_order_ranks(grid);
  std::mt19937 random(7);
  std::uniform_real_distribution<float> coordinate(-0.1f, 0.35f), near(-0.01f, 0.01f);
  std::vector<Vec3> unsorted;
  for (int k = 0; k < 3000; ++k) unsorted.push_back({coordinate(random), coordinate(random), coordinate(random)});
  for (int k = 0; k < 1000; ++k) unsorted.push_back(Vec3{0.1f, 0.1f, 0.1f} + Vec3{near(random), near(random), near(random)});
  CellSort sort;
  sort.sort(grid, rank, unsorted.data(), uint32_t(unsorted.size()));
  std::vector<Vec3> points(unsorted.size());
  for (size_t k = 0; k < points.size(); ++k) points[k] = unsorted[sort.order()[k]];
  const NeighbourQuery query{grid, rank.data(), sort.cell_begin().data(), points.data(),
                             sort.cell_begin().data(), points.data(), support * support};

  CellCandidates candidates(grid, rank.data(), sort.cell_begin().data(), points.data());
  size_t pairs = 0, differing = 0, missed = 0;
  std::vector<uint32_t> listed;
  for (uint32_t i = 0; i < points.size(); ++i) {
    std::vector<uint32_t> expected;
    for_each_neighbour(query, i, [&](uint32_t j) { expected.push_back(j); }, [](uint32_t) {});
    listed.clear();
    candidates.gather(points[i]);
    candidates.within(points[i], support * support, i, listed);
    if (listed != expected) ++differing;
    pairs += expected.size();
    size_t brute = 0;
    for (uint32_t j = 0; j < points.size(); ++j) {
      const Vec3 d = points[i] - points[j];
      brute += j != i && dot(d, d) < support * support;
    }
    if (brute != expected.size()) ++missed;
  }
  INFO(pairs << " pairs");
  CHECK(pairs > 50 * points.size() / 4);  // the cluster is dense: the lists are not trivially short
  CHECK(differing == 0);
  CHECK(missed == 0);
}

}  // namespace meniscus::sim::sph
