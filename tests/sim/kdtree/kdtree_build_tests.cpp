// Tree invariants of the CPU build: preorder layout, every point in exactly one leaf and inside
// the box of every node above it, splits that separate, tight boxes, small leaves; bad input.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>

#include "engine/core/error.h"
#include "sim/kdtree/kdtree.h"
#include "tests/sim/kdtree/kdtree_test_points.h"

namespace meniscus::sim::kdtree {
namespace {

bool inside(const KdNode& node, float x, float y, float z) {
  return node.lo[0] <= x && x <= node.hi[0] && node.lo[1] <= y && y <= node.hi[1] && node.lo[2] <= z && z <= node.hi[2];
}

struct Walk {
  const KdTree& tree;
  std::vector<uint32_t> leaf_hits;  // per point slot
  std::vector<uint32_t> path;       // ancestors of the node being walked
  size_t nodes = 0, outside = 0, wrong_side = 0, loose = 0, bad_count = 0, big_small_leaves = 0;

  // Returns the tight box of the subtree's points, checked against the node's.
  Aabb walk(uint32_t i) {
    ++nodes;
    const KdNode& node = tree.nodes[i];
    Aabb box = empty_box();
    if (node.axis == kLeafAxis) {
      // A leaf with more than T points must be one no plane could split: all points (nearly) equal.
      for (uint32_t s = node.index; s < node.index + node.count; ++s) {
        ++leaf_hits.at(s);
        grow(box, tree.x[s], tree.y[s], tree.z[s]);
        for (uint32_t a : path) outside += !inside(tree.nodes[a], tree.x[s], tree.y[s], tree.z[s]);
        outside += !inside(node, tree.x[s], tree.y[s], tree.z[s]);
      }
      if (node.count > kSmallNodeMax)
        for (int a = 0; a < 3; ++a) big_small_leaves += box.hi[a] > std::nextafter(box.lo[a], INFINITY);
    } else {
      const uint32_t left = i + 1, right = node.index;
      REQUIRE(right > left);
      REQUIRE(right < tree.nodes.size());
      bad_count += node.count != tree.nodes[left].count + tree.nodes[right].count;
      path.push_back(i);
      const Aabb l = walk(left), r = walk(right);
      path.pop_back();
      // Left points lie below the split plane, right ones on or above it.
      wrong_side += !(l.hi[node.axis] < node.split) || !(r.lo[node.axis] >= node.split);
      box = l;
      merge(box, r);
    }
    for (int a = 0; a < 3; ++a) loose += box.lo[a] != node.lo[a] || box.hi[a] != node.hi[a];
    return box;
  }
};

void check_invariants(std::span<const glm::vec3> points, const KdTree& tree) {
  REQUIRE(tree.size() == points.size());
  REQUIRE(!tree.nodes.empty());
  Walk w{tree, std::vector<uint32_t>(points.size(), 0)};
  w.walk(0);
  CHECK(w.nodes == tree.nodes.size());  // preorder: the walk from the root meets every node once
  CHECK(std::all_of(w.leaf_hits.begin(), w.leaf_hits.end(), [](uint32_t h) { return h == 1; }));
  CHECK(w.outside == 0);
  CHECK(w.wrong_side == 0);
  CHECK(w.loose == 0);
  CHECK(w.bad_count == 0);
  CHECK(w.big_small_leaves == 0);
  // The leaf order is a permutation of the input, carrying each point's coordinates.
  std::vector<uint32_t> seen(points.size(), 0);
  size_t moved = 0;
  for (size_t s = 0; s < tree.size(); ++s) {
    ++seen.at(tree.ids[s]);
    const glm::vec3 p = points[tree.ids[s]];
    moved += p.x != tree.x[s] || p.y != tree.y[s] || p.z != tree.z[s];
  }
  CHECK(std::all_of(seen.begin(), seen.end(), [](uint32_t h) { return h == 1; }));
  CHECK(moved == 0);
  CHECK(tree.nodes[0].count == points.size());
}

TEST_CASE("kdtree: kd-tree invariants hold on uniform, clustered and degenerate point sets", "[kdtree][build]") {
  struct Set {
    std::string name;
    std::vector<glm::vec3> points;
  };
  std::vector<Set> sets;
  sets.push_back(Set{"uniform", test::uniform_cube(20000, 1)});
  sets.push_back(Set{"clusters", test::clusters(20000, 2)});
  auto duplicates = test::uniform_cube(3000, 3);
  for (size_t i = 0; i < 2000; ++i) duplicates.push_back(duplicates[i % 7]);
  sets.push_back(Set{"duplicates", duplicates});
  sets.push_back(Set{"all equal", std::vector<glm::vec3>(500, glm::vec3(0.25f, -3.0f, 7.0f))});
  std::vector<glm::vec3> plane, line;
  for (const glm::vec3& p : test::uniform_cube(5000, 4)) {
    plane.push_back({p.x, p.y, 0.5f});
    line.push_back({p.x, 2.0f * p.x + 1.0f, -p.x});
  }
  sets.push_back(Set{"plane", plane});
  sets.push_back(Set{"line", line});
  sets.push_back(Set{"offset 1e6", test::uniform_cube(5000, 5, glm::vec3(1e6f, -1e6f, 1e6f), 100.0f)});
  sets.push_back(Set{"one point", std::vector<glm::vec3>{{1, 2, 3}}});
  sets.push_back(Set{"small", test::uniform_cube(20, 6)});
  for (const auto& [name, points] : sets) {
    SECTION(name) {
      const KdTree tree = build_kdtree(points);
      INFO(name << ": " << tree.nodes.size() << " nodes, " << tree.stats.leaves << " leaves, depth "
                << tree.stats.max_depth << ", R " << tree.query_radius);
      check_invariants(points, tree);
      if (name == "uniform" || name == "clusters") {
        CHECK(tree.stats.large_levels > 5);
        CHECK(tree.stats.small_roots > 100);
        CHECK(tree.stats.forced_leaves == 0);
        CHECK(tree.query_radius > 0.0f);
      }
      if (name == "all equal") CHECK(tree.stats.forced_leaves == 1);
    }
  }
}

TEST_CASE("kdtree: the tree's R follows the dimension the points span", "[kdtree][build]") {
  // 20k points in a unit cube: 16 neighbours within about (3 * 16 / (4 pi 20000))^(1/3) = 0.058.
  const KdTree cube = build_kdtree(test::uniform_cube(20000, 7));
  CHECK(cube.query_radius == Approx(0.058).epsilon(0.25));
  // 20k points on a unit square: 16 neighbours within sqrt(16 / (pi 20000)) = 0.016.
  std::vector<glm::vec3> square;
  for (const glm::vec3& p : test::uniform_cube(20000, 8)) square.push_back({p.x, p.y, 0.0f});
  CHECK(build_kdtree(square).query_radius == Approx(0.016).epsilon(0.25));
}

TEST_CASE("kdtree: non-finite points are rejected with an InputError naming the point", "[kdtree][input]") {
  auto points = test::uniform_cube(100, 9);
  points[7].y = std::numeric_limits<float>::quiet_NaN();
  REQUIRE_THROWS_AS(build_kdtree(points), InputError);
  REQUIRE_THROWS_WITH(build_kdtree(points), "kdtree: point 7 has a non-finite y coordinate (nan)");
  points[7].y = 0.5f;
  points[42].z = -std::numeric_limits<float>::infinity();
  REQUIRE_THROWS_WITH(build_kdtree(points), "kdtree: point 42 has a non-finite z coordinate (-inf)");
  points[42].z = 0.5f;
  const KdTree tree = build_kdtree(points);
  const std::vector<glm::vec3> queries{{0.5f, 0.5f, 0.5f}, {std::numeric_limits<float>::quiet_NaN(), 0, 0}};
  REQUIRE_THROWS_WITH(knn(tree, queries), "kdtree: query 1 has a non-finite x coordinate (nan)");
  REQUIRE_THROWS_AS(knn_all(tree, KnnParams{.k = 0}), InputError);
}

TEST_CASE("kdtree: an empty point set gives an empty tree and no neighbours", "[kdtree][input]") {
  const KdTree tree = build_kdtree(std::vector<glm::vec3>{});
  CHECK(tree.nodes.empty());
  CHECK(tree.size() == 0);
  const KnnResult result = knn_all(tree);
  CHECK(result.k == 0);
  CHECK(result.queries() == 0);
}

}  // namespace
}  // namespace meniscus::sim::kdtree
