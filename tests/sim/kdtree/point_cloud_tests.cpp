// Appendix B: density k / r^2 and PCA normals, consistently oriented, on sampled spheres.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>

#include <glm/geometric.hpp>

#include "sim/kdtree/point_cloud.h"
#include "tests/sim/kdtree/kdtree_test_points.h"

namespace meniscus::sim::kdtree {
namespace {

// Fibonacci-spiral samples of a sphere: even spacing, so neighbourhoods are balanced.
std::vector<glm::vec3> sphere(size_t n, glm::vec3 centre, float radius) {
  std::vector<glm::vec3> p(n);
  const double golden = std::numbers::pi * (3.0 - std::sqrt(5.0));
  for (size_t i = 0; i < n; ++i) {
    const double z = 1.0 - 2.0 * (double(i) + 0.5) / double(n);
    const double r = std::sqrt(1.0 - z * z), phi = golden * double(i);
    p[i] = centre + radius * glm::vec3(float(r * std::cos(phi)), float(r * std::sin(phi)), float(z));
  }
  return p;
}

PointCloudAnalysis analyse(const std::vector<glm::vec3>& points, uint32_t k, KnnResult* keep = nullptr) {
  const KdTree tree = build_kdtree(points, KdTreeParams{.k = k});
  KnnResult neighbours = knn_all(tree, KnnParams{.k = k});
  PointCloudAnalysis out = analyse_point_cloud(points, neighbours);
  if (keep) *keep = std::move(neighbours);
  return out;
}

TEST_CASE("kdtree: PCA normals on a sampled sphere are within 1 degree of radial and all point outward", "[kdtree][normals]") {
  const glm::vec3 centre(3.0f, -2.0f, 1.5f);
  const auto points = sphere(20000, centre, 2.0f);
  KnnResult neighbours;
  const PointCloudAnalysis a = analyse(points, 16, &neighbours);
  double worst = 0;
  size_t inward = 0;
  for (size_t i = 0; i < points.size(); ++i) {
    const glm::vec3 radial = glm::normalize(points[i] - centre);
    const double cosine = glm::dot(a.normals[i], radial);
    inward += cosine < 0;
    worst = std::max(worst, std::acos(std::min(1.0, std::abs(cosine))) * 180.0 / std::numbers::pi);
  }
  INFO("worst angle " << worst << " degrees, " << inward << " inward");
  CHECK(worst < 1.0);
  CHECK(inward == 0);
  CHECK(a.components == 1);
  // rho = k / r^2 exactly, and on an evenly sampled sphere about k / (k / (pi sigma)) = pi sigma,
  // sigma = n / (4 pi R^2) points per unit area.
  double mean = 0;
  for (size_t i = 0; i < points.size(); ++i) {
    REQUIRE(a.density[i] == 16.0f / (neighbours.radius(i) * neighbours.radius(i)));
    mean += a.density[i];
  }
  mean /= double(points.size());
  const double sigma = 20000.0 / (4.0 * std::numbers::pi * 4.0);
  CHECK(mean == Approx(std::numbers::pi * sigma).epsilon(0.2));
}

TEST_CASE("kdtree: each separate sphere is oriented outward on its own", "[kdtree][normals]") {
  auto points = sphere(4000, glm::vec3(0.0f), 1.0f);
  for (const glm::vec3& p : sphere(3000, glm::vec3(5.0f, 0.0f, -1.0f), 0.5f)) points.push_back(p);
  const PointCloudAnalysis a = analyse(points, 12);
  CHECK(a.components == 2);
  size_t inward = 0;
  for (size_t i = 0; i < points.size(); ++i) {
    const glm::vec3 centre = i < 4000 ? glm::vec3(0.0f) : glm::vec3(5.0f, 0.0f, -1.0f);
    inward += glm::dot(a.normals[i], points[i] - centre) <= 0.0f;
  }
  CHECK(inward == 0);
}

TEST_CASE("kdtree: a plane's normals are its normal and a line's are orthogonal to it", "[kdtree][normals]") {
  std::vector<glm::vec3> plane, line;
  for (const glm::vec3& p : test::uniform_cube(2000, 31)) {
    plane.push_back({p.x, p.y, 0.2f * p.x - 0.5f * p.y + 3.0f});
    line.push_back({p.x, 2.0f * p.x, -p.x});
  }
  const glm::vec3 expected = glm::normalize(glm::vec3(-0.2f, 0.5f, 1.0f));
  const PointCloudAnalysis a = analyse(plane, 10);
  double worst = 0;
  for (const glm::vec3& n : a.normals) worst = std::max(worst, double(1.0f - glm::dot(n, expected)));
  CHECK(worst < 1e-4);
  const glm::vec3 along = glm::normalize(glm::vec3(1.0f, 2.0f, -1.0f));
  const PointCloudAnalysis b = analyse(line, 10);
  for (const glm::vec3& n : b.normals) {
    REQUIRE(std::abs(glm::length(n) - 1.0f) < 1e-5f);
    REQUIRE(std::abs(glm::dot(n, along)) < 1e-3f);
  }
}

}  // namespace
}  // namespace meniscus::sim::kdtree
