// KNN (Algorithms 6 and 7) against brute force, on > 10k queries over sets that stress the
// search: clusters, duplicates, fewer points than k, collinear and planar points, coordinates
// near 1e6, queries far outside the points; identical answers for any thread count, and from
// the fastest SIMD kernels and the baseline ones.
#include <catch2/catch.hpp>

#include <tbb/global_control.h>

#include <cstring>
#include <string>

#include "sim/kdtree/knn.h"
#include "tests/sim/kdtree/kdtree_test_points.h"

namespace meniscus::sim::kdtree {
namespace {

constexpr KnnKernels kBothKernels[] = {KnnKernels::kFastest, KnnKernels::kBaseline};

// Every point's neighbours by the fastest kernels against brute force, and by the baseline
// ones against those, to the bit.
size_t check_all_points(const std::vector<glm::vec3>& points, uint32_t k) {
  const KdTree tree = build_kdtree(points, KdTreeParams{.k = k});
  const KnnResult fastest = knn_all(tree, KnnParams{.k = k, .kernels = KnnKernels::kFastest});
  const KnnResult baseline = knn_all(tree, KnnParams{.k = k, .kernels = KnnKernels::kBaseline});
  INFO(points.size() << " points, k " << k << ", " << fastest.stats.kernels << " kernels: points tested "
                     << fastest.stats.mean_points_tested << ", retries " << fastest.stats.retries << ", radius nodes "
                     << fastest.stats.radius_nodes);
  test::check_against_brute_force(points, points, fastest, k);
  CHECK(fastest.indices == baseline.indices);
  CHECK(fastest.distances == baseline.distances);
  return points.size();
}

TEST_CASE("kdtree: the fastest KNN kernels are the CPU's widest", "[kdtree][knn]") {
  const char* fastest = knn_kernels_name(KnnKernels::kFastest);
  INFO("fastest " << fastest << ", baseline " << knn_kernels_name(KnnKernels::kBaseline));
#if defined(__x86_64__)
  const char* widest = __builtin_cpu_supports("avx512f") ? "avx512" : __builtin_cpu_supports("avx2") ? "avx2" : "sse2";
  CHECK(std::string(fastest) == widest);
  CHECK(std::string(knn_kernels_name(KnnKernels::kBaseline)) == "sse2");
#else
  CHECK(std::string(fastest) == knn_kernels_name(KnnKernels::kBaseline));
#endif
}

TEST_CASE("kdtree: KNN of every point equals brute force (uniform and clustered, 16k queries)", "[kdtree][knn]") {
  size_t queries = check_all_points(test::uniform_cube(10000, 11), 16);
  queries += check_all_points(test::clusters(6000, 12), 10);
  CHECK(queries >= 10000);
}

TEST_CASE("kdtree: KNN of arbitrary queries, inside and far outside the points, equals brute force", "[kdtree][knn]") {
  const auto points = test::clusters(5000, 13);
  auto queries = test::uniform_cube(2000, 14, glm::vec3(-12.0f), 24.0f);
  for (const glm::vec3& q : test::uniform_cube(200, 15, glm::vec3(-1000.0f), 2000.0f)) queries.push_back(q);
  queries.push_back(points[17]);  // a query on a data point
  const KdTree tree = build_kdtree(points);
  // k 33: lists of three 16-entry blocks.
  for (uint32_t k : {1u, 8u, 16u, 17u, 33u}) {
    for (const KnnKernels kernels : kBothKernels) {
      SECTION("k " + std::to_string(k) + ", " + knn_kernels_name(kernels) + " kernels") {
        test::check_against_brute_force(points, queries, knn(tree, queries, KnnParams{.k = k, .kernels = kernels}), k);
      }
    }
  }
}

// Queries on a floor grid over points that cover part of it, as a caustic's cells are: where no
// node on a query's path has Algorithm 7's radius, the farthest corner of the deepest node
// holding k points is its start, which holds them, so no query has to grow its radius.
TEST_CASE("kdtree: KNN of a floor grid around sparse points needs no second range search", "[kdtree][knn]") {
  std::vector<glm::vec3> points = test::uniform_cube(20000, 16, glm::vec3(0.0f), 1.0f);
  for (glm::vec3& p : points) p.y = 0.0f;
  for (size_t i = 0; i < 2000; ++i) points[i] = {2.0f * points[i].x, 0.0f, 2.0f * points[i].z + 1.0f};  // sparse
  std::vector<glm::vec3> cells;
  for (int z = 0; z < 60; ++z)
    for (int x = 0; x < 60; ++x) cells.push_back({-1.0f + 0.06f * float(x), 0.0f, -1.0f + 0.06f * float(z)});
  const KdTree tree = build_kdtree(points, KdTreeParams{.k = 48});
  const KnnResult result = knn(tree, cells, KnnParams{.k = 48});
  INFO("points tested " << result.stats.mean_points_tested << ", retries " << result.stats.retries);
  CHECK(result.stats.retries == 0);
  test::check_against_brute_force(points, cells, result, 48);
}

TEST_CASE("kdtree: KNN with duplicate points equals brute force up to ties", "[kdtree][knn]") {
  auto points = test::uniform_cube(2000, 16);
  for (size_t i = 0; i < 1500; ++i) points.push_back(points[i % 5]);  // 300 copies of 5 points
  for (size_t i = 0; i < 40; ++i) points.push_back(points[100]);      // more copies than k
  check_all_points(points, 16);
  check_all_points(points, 33);  // ties across the lists' 16-entry blocks
}

TEST_CASE("kdtree: KNN with fewer points than k returns every point, nearest first", "[kdtree][knn]") {
  const auto points = test::uniform_cube(5, 17);
  const KdTree tree = build_kdtree(points);
  const KnnResult result = knn_all(tree, KnnParams{.k = 16});
  CHECK(result.k == 5);
  test::check_against_brute_force(points, points, result, 16);
  const std::vector<glm::vec3> one{{3, 3, 3}};
  test::check_against_brute_force(points, one, knn(tree, one, KnnParams{.k = 16}), 16);
}

TEST_CASE("kdtree: KNN on collinear and planar points equals brute force", "[kdtree][knn]") {
  std::vector<glm::vec3> line, plane, tilted;
  for (const glm::vec3& p : test::uniform_cube(3000, 18)) {
    line.push_back({p.x, 0.5f * p.x - 2.0f, 3.0f * p.x});
    plane.push_back({p.x, p.y, -1.0f});
    tilted.push_back({p.x, p.y, 0.3f * p.x - 0.7f * p.y});
  }
  check_all_points(line, 16);
  check_all_points(plane, 16);
  check_all_points(tilted, 12);
}

TEST_CASE("kdtree: KNN at coordinates near 1e6 keeps full relative precision", "[kdtree][knn]") {
  // Floats near 1e6 are 1/16 apart: 100-unit spread is 1600 steps per axis.
  check_all_points(test::uniform_cube(4000, 19, glm::vec3(1e6f, 1e6f, -1e6f), 100.0f), 16);
  // Within 1 unit only 16 values per axis exist: heavy ties and exact duplicates.
  check_all_points(test::uniform_cube(3000, 20, glm::vec3(1e6f, 1e6f, 1e6f), 1.0f), 8);
  check_all_points(test::uniform_cube(3000, 20, glm::vec3(1e6f, 1e6f, 1e6f), 1.0f), 20);
}

TEST_CASE("kdtree: the tree and the neighbours are identical for 1, 2 and 3 threads", "[kdtree][knn][threads]") {
  const auto points = test::clusters(30000, 21);
  std::vector<KdTree> trees;
  std::vector<KnnResult> results;
  for (size_t threads : {1u, 2u, 3u}) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
    trees.push_back(build_kdtree(points));
    results.push_back(knn_all(trees.back()));
  }
  for (size_t t = 1; t < trees.size(); ++t) {
    INFO("threads " << t + 1 << " against 1");
    REQUIRE(trees[t].nodes.size() == trees[0].nodes.size());
    CHECK(std::memcmp(trees[t].nodes.data(), trees[0].nodes.data(), trees[0].nodes.size() * sizeof(KdNode)) == 0);
    CHECK(trees[t].ids == trees[0].ids);
    CHECK(trees[t].query_radius == trees[0].query_radius);
    CHECK(results[t].indices == results[0].indices);
    CHECK(results[t].distances == results[0].distances);
  }
}

}  // namespace
}  // namespace meniscus::sim::kdtree
