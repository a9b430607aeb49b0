// The CPU search's per-cell candidates against the query both backends share, and both
// against brute force; the CPU's four-wide pair terms against the shared scalar ones.
#include <catch2/catch.hpp>
#include <cstring>
#include <random>
#include <vector>

#include "sim/sph/sph_cell_candidates.h"
#include "sim/sph/sph_cell_sort.h"
#include "sim/sph/sph_neighbours.h"
#include "sim/sph/sph_pair_terms_sse.h"

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

TEST_CASE("four-wide pair terms are bit-identical to the shared scalar ones", "[sph][neighbours]") {
  // Lists of every length modulo four, pairs on the spline's knot (q = 1/2), at the support's
  // edge, beyond it, and on top of the particle, fluid and boundary with varied volumes.
  Constants c{};
  c.kernel = Kernel::with_support(0.04f);
  c.volume = 1.0e-6f;
  std::mt19937 random(11);
  std::uniform_real_distribution<float> offset(-0.03f, 0.03f), volume(0.5e-6f, 2.0e-6f);
  const uint32_t particles = 64;
  std::vector<Vec3> position, boundary_position;
  std::vector<float> boundary_volume;
  std::vector<uint32_t> neighbour_begin{0}, neighbours, boundary_begin{0}, boundary_neighbours;
  for (uint32_t i = 0; i < particles; ++i) position.push_back({offset(random), offset(random), offset(random)});
  for (uint32_t i = 0; i < particles; ++i) {
    for (uint32_t k = 0; k < (i * 7) % 41; ++k) neighbours.push_back(uint32_t(random() % particles));
    neighbour_begin.push_back(uint32_t(neighbours.size()));
    for (uint32_t k = 0; k < i % 9; ++k) {
      const float r = k == 0 ? 0.02f : k == 1 ? 0.04f : k == 2 ? 0.0f : offset(random);
      boundary_position.push_back(position[i] + Vec3{r, k == 3 ? offset(random) : 0.0f, 0.0f});
      boundary_volume.push_back(volume(random));
      boundary_neighbours.push_back(uint32_t(boundary_position.size() - 1));
    }
    boundary_begin.push_back(uint32_t(boundary_neighbours.size()));
  }
  auto run = [&](bool four_wide, std::vector<float>& density, std::vector<float>& factor, std::vector<Vec3>& fluid,
                 std::vector<Vec3>& boundary) {
    density.assign(particles, 0.0f);
    factor.assign(particles, 0.0f);
    fluid.assign(neighbours.size(), Vec3{0, 0, 0});
    boundary.assign(boundary_neighbours.size(), Vec3{0, 0, 0});
    Arrays a{};
    a.count = particles;
    a.position = position.data();
    a.density = density.data();
    a.factor = factor.data();
    a.neighbour_begin = neighbour_begin.data();
    a.neighbours = neighbours.data();
    a.boundary_begin = boundary_begin.data();
    a.boundary_neighbours = boundary_neighbours.data();
    a.boundary_position = boundary_position.data();
    a.boundary_volume = boundary_volume.data();
    for (uint32_t i = 0; i < particles; ++i) {
      if (four_wide)
        compute_pairs_density_and_factor_sse(c, a, i, fluid.data(), boundary.data());
      else
        compute_pairs_density_and_factor(c, a, i, fluid.data(), boundary.data());
    }
  };
  std::vector<float> density[2], factor[2];
  std::vector<Vec3> fluid[2], boundary[2];
  run(false, density[0], factor[0], fluid[0], boundary[0]);
  run(true, density[1], factor[1], fluid[1], boundary[1]);
  auto same_bits = [](const auto& x, const auto& y) {
    return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(x[0])) == 0;
  };
  CHECK(same_bits(density[0], density[1]));
  CHECK(same_bits(factor[0], factor[1]));
  CHECK(same_bits(fluid[0], fluid[1]));
  CHECK(same_bits(boundary[0], boundary[1]));
  size_t gradients = 0;
  for (const Vec3& g : fluid[0]) gradients += g.x != 0.0f;
  CHECK(gradients > neighbours.size() / 4);  // a good share of the listed pairs lie within the support
}

}  // namespace meniscus::sim::sph
