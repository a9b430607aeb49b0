// The distances that grade a reconstruction: point to mesh against testing every triangle, and
// the band's own per-sample distances (surface_error.h) against a sphere's.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>

#include "sim/levelset/level_set_builder.h"
#include "sim/levelset/triangle_distance.h"
#include "sim/reconstruct/surface_error.h"
#include "sim/reconstruct/surface_distance.h"

using namespace meniscus::sim;

namespace {

float brute_force(const IndexedMesh& mesh, glm::vec3 p) {
  float best2 = std::numeric_limits<float>::infinity();
  for (const glm::uvec3& t : mesh.triangles) {
    const glm::vec3 q = levelset::closest_point_on_triangle(p, mesh.positions[t.x], mesh.positions[t.y], mesh.positions[t.z]).point;
    best2 = std::min(best2, glm::dot(p - q, p - q));
  }
  return std::sqrt(best2);
}

}  // namespace

TEST_CASE("surface distance: every point's distance equals testing every triangle", "[reconstruct][distance]") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  IndexedMesh mesh;
  // Small triangles scattered in a cube, and a few long slivers across it.
  for (int i = 0; i < 600; ++i) {
    const glm::vec3 c(u(rng), u(rng), u(rng));
    const float size = i % 100 == 0 ? 1.5f : 0.05f;
    for (int k = 0; k < 3; ++k) mesh.positions.push_back(c + size * glm::vec3(u(rng), u(rng), u(rng)));
    mesh.triangles.emplace_back(3 * i, 3 * i + 1, 3 * i + 2);
  }
  std::vector<glm::vec3> points;
  for (int i = 0; i < 400; ++i) points.emplace_back(u(rng), u(rng), u(rng));  // among the triangles
  for (int i = 0; i < 100; ++i) points.emplace_back(5.0f * u(rng), 5.0f * u(rng), 5.0f * u(rng));  // most far outside
  points.push_back(mesh.positions[5]);  // on a vertex

  const std::vector<float> d = reconstruct::distances_to_mesh(mesh, points);
  REQUIRE(d.size() == points.size());
  for (size_t i = 0; i < points.size(); ++i) CHECK(d[i] == brute_force(mesh, points[i]));
  CHECK(d.back() == 0.0f);
}

TEST_CASE("surface distance: a flat mesh, a mesh without triangles, and the summary", "[reconstruct][distance]") {
  IndexedMesh square;
  square.positions = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
  square.triangles = {{0, 1, 2}, {0, 2, 3}};
  const std::vector<glm::vec3> points{{0.5f, 0.5f, 0.25f}, {0.5f, 0.5f, -2.0f}, {3.0f, 0.5f, 0.0f}};
  const std::vector<float> d = reconstruct::distances_to_mesh(square, points);
  CHECK(d[0] == Approx(0.25f));
  CHECK(d[1] == Approx(2.0f));
  CHECK(d[2] == Approx(2.0f));

  const reconstruct::SurfaceAccuracy a = reconstruct::surface_accuracy(square, points, 10.0);
  CHECK(a.mean_percent == Approx(100.0 * (0.25 + 2.0 + 2.0) / 3.0 / 10.0));
  CHECK(a.max_percent == Approx(20.0));
  CHECK(a.worst_sample == 1);  // the first of the two at 2
  CHECK(a.median_percent == Approx(20.0));
  CHECK(a.p99_percent == Approx(20.0));

  std::vector<float> ramp(101);
  for (size_t i = 0; i < ramp.size(); ++i) ramp[(i * 37) % ramp.size()] = float(i);  // shuffled 0..100
  const reconstruct::SurfaceAccuracy q = reconstruct::summarise_distances(ramp, 100.0);
  CHECK(q.median_percent == Approx(50.0));
  CHECK(q.p99_percent == Approx(99.0));
  CHECK(q.max_percent == Approx(100.0));

  const std::vector<float> none = reconstruct::distances_to_mesh(IndexedMesh{}, points);
  for (float v : none) CHECK(std::isinf(v));
}

TEST_CASE("surface distance: a mesh shrunk to a point, far points and NaN", "[reconstruct][distance]") {
  IndexedMesh point;
  point.positions = {{1, 2, 3}, {1, 2, 3}, {1, 2, 3}};
  point.triangles = {{0, 1, 2}};
  const std::vector<glm::vec3> points{{2, 2, 3}, {1, 2, 3}, {1e30f, -1e30f, 0}, {NAN, 0, 0}, {INFINITY, 0, 0}};
  const std::vector<float> d = reconstruct::distances_to_mesh(point, points);
  CHECK(d[0] == 1.0f);
  CHECK(d[1] == 0.0f);
  CHECK(d[2] == brute_force(point, points[2]));
  CHECK(std::isnan(d[3]));
  CHECK(std::isnan(d[4]));
}

TEST_CASE("surface distance: the band's distances of samples near and far from a sphere", "[reconstruct][distance]") {
  const glm::vec3 centre(40.3f, 40.6f, 39.8f);
  const float radius = 12.0f;
  levelset::SortedTileList list(1.5f);
  levelset::build_from_sdf(list, [&](glm::vec3 p) { return glm::length(p - centre) - radius; }, glm::ivec3(20), glm::ivec3(60));
  // Samples on rays from the centre, from well inside to beyond the stored tiles: |φ| holds
  // only where the band is not clamped; past it the nearest zero crossing takes over.
  std::vector<glm::vec3> samples;
  std::vector<float> expected;
  const glm::vec3 directions[] = {glm::normalize(glm::vec3(1, 0.2f, -0.3f)), glm::normalize(glm::vec3(-0.4f, 1, 0.5f)),
                                  glm::normalize(glm::vec3(0.1f, -0.7f, -1))};
  for (const glm::vec3& d : directions)
    for (float offset : {-6.0f, -4.0f, -2.0f, -1.0f, -0.3f, 0.0f, 0.4f, 1.2f, 2.0f, 3.0f, 4.0f, 6.0f, 9.0f}) {
      samples.push_back(centre + (radius + offset) * d);
      expected.push_back(std::abs(offset));
    }
  const std::vector<float> d = reconstruct::surface_distances(list, samples);
  REQUIRE(d.size() == samples.size());
  for (size_t i = 0; i < d.size(); ++i) {
    INFO("sample " << i << " expected " << expected[i]);
    CHECK(std::abs(d[i] - expected[i]) <= 0.35f);  // the crossings are a voxel apart on the surface
  }
}
