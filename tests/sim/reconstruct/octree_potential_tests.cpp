// The pieces of the reconstruction: octree invariants, Barnes–Hut against the direct sum, the
// cached velocity against Eq. 2–3, upsampling and tile ages.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "sim/levelset/level_set_builder.h"
#include "sim/reconstruct/barnes_hut.h"
#include "sim/reconstruct/point_octree.h"
#include "sim/reconstruct/potential_cache.h"
#include "sim/reconstruct/shepard_field.h"
#include "sim/levelset/tile_ages.h"
#include "sim/levelset/upsample.h"
#include "tests/sim/reconstruct/reconstruct_test_points.h"

using namespace meniscus::sim::reconstruct;
namespace levelset = meniscus::sim::levelset;

namespace {

// Points in the octree's finest-grid units for depth 7 (a 128 cube), with exact duplicates.
std::vector<glm::vec3> cloud() {
  std::vector<glm::vec3> points = meniscus::test::sphere_samples(3000, glm::vec3(64.0f), 40.0f);
  for (int i = 0; i < 50; ++i) points.push_back(points[size_t(i) * 7]);
  return points;
}

}  // namespace

TEST_CASE("octree: counts add up, children are consecutive siblings, leaves hold one sample or sit at depth D",
          "[reconstruct]") {
  const std::vector<glm::vec3> points = cloud();
  const PointOctree tree(points, 7);
  const auto& nodes = tree.nodes();
  REQUIRE(nodes[0].count == points.size());
  size_t leaf_samples = 0;
  for (uint32_t n = 0; n < nodes.size(); ++n) {
    const OctreeNode& node = nodes[n];
    if (node.children == 0) {
      CHECK((node.count <= 1 || node.depth == 7));
      leaf_samples += node.count;
      continue;
    }
    uint32_t sum = 0;
    glm::dvec3 weighted(0.0);
    for (uint32_t c = 0; c < 8; ++c) {
      const OctreeNode& child = nodes[node.children + c];
      REQUIRE(child.parent == n);
      REQUIRE(child.child_index == c);
      REQUIRE(child.depth == node.depth + 1);
      sum += child.count;
      weighted += double(child.count) * glm::dvec3(child.centroid);
    }
    REQUIRE(sum == node.count);
    CHECK(glm::length(weighted / double(sum) - glm::dvec3(node.centroid)) < 1e-3);
    // The centroid lies in the node's cube (the samples below it do).
    const float side = tree.node_size(node.depth);
    const glm::vec3 corner = glm::floor(node.centroid / side) * side;
    CHECK(glm::all(glm::lessThanEqual(corner, node.centroid)));
  }
  CHECK(leaf_samples == points.size());
  CHECK(tree.merged_leaves() >= 50);  // each duplicate shares a depth-D leaf with its original
}

TEST_CASE("Barnes-Hut: theta 0 is the direct sum (p = 3 and 4), theta 0.5 is within 3%, the depth limit only coarsens",
          "[reconstruct]") {
  const std::vector<glm::vec3> points = cloud();
  const PointOctree tree(points, 7);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(0.0f, 128.0f);
  for (int i = 0; i < 200; ++i) {
    const glm::vec3 x(u(rng), u(rng), u(rng));
    PotentialParams exact;
    exact.theta = 0.0f;
    const double direct = BarnesHut::direct_potential(points, x, exact);
    REQUIRE(BarnesHut(tree, exact).potential(x) == Approx(direct).epsilon(1e-5));
    PotentialParams approx = exact;
    approx.theta = 0.5f;
    CHECK(BarnesHut(tree, approx).potential(x) == Approx(direct).epsilon(3e-2));
    PotentialParams steeper = exact;  // an exponent other than the paper's takes the pow
    steeper.p = 4.0f;
    REQUIRE(BarnesHut(tree, steeper).potential(x) ==
            Approx(BarnesHut::direct_potential(points, x, steeper)).epsilon(1e-5));
  }
  // Level-4 cells are 8 units: 20 units away, a walk stopped at depth 4 is still close.
  PotentialParams coarse;
  coarse.max_depth = 4;
  const glm::vec3 x(64.0f, 64.0f, 64.0f + 40.0f + 20.0f);
  CHECK(BarnesHut(tree, coarse).potential(x) == Approx(BarnesHut::direct_potential(points, x, coarse)).epsilon(0.05));
}

TEST_CASE("Barnes-Hut: the stackless walk visits far fewer nodes than there are samples", "[reconstruct]") {
  const std::vector<glm::vec3> points = meniscus::test::sphere_samples(20000, glm::vec3(64.0f), 40.0f);
  const PointOctree tree(points, 7);
  PotentialCounters counters;
  const BarnesHut bh(tree, PotentialParams{});
  bh.potential(glm::vec3(64.0f, 64.0f, 100.0f), &counters);
  CHECK(counters.nodes_visited > 0);
  CHECK(counters.nodes_visited < points.size() / 10);
}

TEST_CASE("Barnes-Hut: a group walk gives each point, bit for bit, its own walk's P, gradient and node count",
          "[reconstruct]") {
  const std::vector<glm::vec3> points = cloud();
  const PointOctree tree(points, 7);
  PotentialParams params;
  params.max_depth = 6;  // the depth limit too: a level below the finest
  const BarnesHut bh(tree, params);
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(0.0f, 120.0f), local(0.0f, 6.0f);
  // Groups as a tile's voxels are: close together, of sizes up to 64, some straddling the
  // sphere's samples (where the points disagree on which nodes to open); and a group spread
  // over the whole cube.
  const int sizes[] = {1, 2, 10, 33, 63, 64, 64};
  for (size_t round = 0; round < std::size(sizes); ++round) {
    const bool spread = round + 1 == std::size(sizes);
    const glm::vec3 corner(u(rng), u(rng), u(rng));
    std::vector<glm::vec3> group;
    for (int i = 0; i < sizes[round]; ++i)
      group.push_back(spread ? glm::vec3(u(rng), u(rng), u(rng))
                             : corner + glm::vec3(local(rng), local(rng), local(rng)));
    std::vector<PotentialSample> together(group.size());
    std::vector<float> values(group.size());
    PotentialCounters group_count, value_count, own_count;
    bh.sample_group(group, together, &group_count);
    bh.potential_group(group, values, &value_count);
    for (size_t i = 0; i < group.size(); ++i) {
      const PotentialSample alone = bh.sample(group[i], &own_count);
      REQUIRE(together[i].value == alone.value);
      REQUIRE(together[i].gradient == alone.gradient);
      REQUIRE(values[i] == bh.potential(group[i]));
    }
    CHECK(group_count.nodes_visited == own_count.nodes_visited);
    CHECK(value_count.nodes_visited == own_count.nodes_visited);
  }
  std::vector<PotentialSample> too_many(65);
  CHECK_THROWS_AS(bh.sample_group(std::vector<glm::vec3>(65), too_many), std::invalid_argument);
}

TEST_CASE("potential cache: the cached velocity points as the Shepard field of Eq. 2-3 does", "[reconstruct]") {
  // A sphere of samples around a level set whose voxels are the octree's (level = D).
  const std::vector<glm::vec3> points = meniscus::test::sphere_samples(4000, glm::vec3(32.0f), 18.0f);
  const PointOctree tree(points, 6);
  ReconstructionFrame frame;
  frame.coarsest = frame.finest = 6;  // margin 0: voxel v is octree point v
  PotentialParams params;
  params.epsilon = 0.5f;
  const BarnesHut bh(tree, params);
  // The paper's central differences of P and the walk's exact gradient.
  const GradientScheme scheme = GENERATE(GradientScheme::kCentral, GradientScheme::kAnalytic);
  PotentialCache cache(bh, frame, 6, scheme);
  levelset::SortedTileList list(1.5f);
  // A band around radius 24: outside the samples, the field points inward.
  levelset::build_from_sdf(list, [](glm::vec3 p) { return glm::length(p - glm::vec3(32.0f)) - 24.0f; }, glm::ivec3(0),
                           glm::ivec3(64));
  REQUIRE(cache.refresh(list) == list.size());
  REQUIRE(cache.refresh(list) == 0);  // cached: nothing to evaluate again
  double worst = 0.0;
  int checked = 0;
  for (const levelset::TileEntry& e : list.active()) {
    const levelset::TileCoord c = levelset::coord_of(e.key);
    const glm::ivec3 voxel(c.x * 4 + 1, c.y * 4 + 2, c.z * 4 + 1);
    if (std::abs(glm::length(glm::vec3(voxel) - glm::vec3(32.0f)) - 24.0f) > 1.5f) continue;
    const glm::vec3 v = cache.velocity(list, voxel);
    const glm::vec3 shepard = shepard_velocity(points, glm::vec3(voxel), params.p, params.epsilon);
    REQUIRE(glm::length(v) == Approx(1.0f).epsilon(1e-4));
    REQUIRE(glm::length(shepard) > 0.1f);
    REQUIRE(glm::length(shepard) < 1.0f);  // 0 < c < 1 (§4.1)
    worst = std::max(worst, double(std::acos(std::min(1.0f, glm::dot(v, glm::normalize(shepard))))));
    ++checked;
  }
  CHECK(checked > 50);
  CHECK(worst * 180.0 / 3.14159265 < 3.0);
}

TEST_CASE("upsampling: the finer band holds the doubled, interpolated distance", "[reconstruct]") {
  const auto sphere = [](glm::vec3 centre, float r) { return [=](glm::vec3 p) { return glm::length(p - centre) - r; }; };
  levelset::SortedTileList coarse(1.5f);
  levelset::build_from_sdf(coarse, sphere(glm::vec3(20.0f), 9.0f), glm::ivec3(0), glm::ivec3(40));
  levelset::SortedTileList fine = levelset::upsample(coarse);
  REQUIRE(fine.size() == coarse.size() * 8);
  REQUIRE(fine.check_invariants().empty());
  fine.manage();
  REQUIRE(fine.check_invariants().empty());
  CHECK(fine.size() < coarse.size() * 8);  // the tiles that hold only ±γ are dropped
  // Near the surface the fine values are the fine SDF (trilinear error of a smooth function).
  const auto fine_sdf = sphere(glm::vec3(40.0f), 18.0f);
  int checked = 0;
  for (const levelset::TileEntry& e : fine.active()) {
    const levelset::TileCoord c = levelset::coord_of(e.key);
    for (int k = 0; k < levelset::kTileVoxels; ++k) {
      const glm::vec3 p(c.x * 4 + k % 4, c.y * 4 + k / 4 % 4, c.z * 4 + k / 16);
      if (std::abs(fine_sdf(p)) > 1.0f) continue;
      CHECK(fine.value(e.id, k) == Approx(fine_sdf(p)).margin(0.15));
      ++checked;
    }
  }
  CHECK(checked > 1000);
}

TEST_CASE("tile ages: survivors age with time, new and re-created tiles start at zero", "[reconstruct]") {
  levelset::SortedTileList list(1.5f);
  list.insert({levelset::key_of({1, 1, 1}), levelset::key_of({2, 1, 1})}, -1.0f);
  levelset::TileAges ages;
  ages.update(list, 0.0);
  CHECK(ages.youngest() == 0.0);
  ages.update(list, 3.0);
  CHECK(ages.youngest() == 3.0);
  CHECK(!ages.all_older_than(5.0));
  ages.update(list, 6.0);
  CHECK(ages.all_older_than(5.0));
  list.insert({levelset::key_of({3, 1, 1})}, -1.0f);
  ages.update(list, 7.0);
  CHECK(ages.youngest() == 0.0);
  CHECK(!ages.all_older_than(5.0));
  // One young tile in three: settled for a third, not for less.
  CHECK(ages.settled(5.0, 1.0 / 3.0));
  CHECK(!ages.settled(5.0, 0.3));
  CHECK(!ages.settled(5.0, 0.0));
  ages.update(list, 12.5);
  CHECK(ages.settled(5.0, 0.0) == ages.all_older_than(5.0));
  CHECK(ages.settled(5.0, 0.0));
}
