// Ray packets through the triangle kd-tree against the single traversal, which the other tests
// hold to the brute force: every lane's hit (t, triangle, barycentrics, normal) equal to the
// bit, for every kernel this CPU has, on coherent camera rays and the rays they reflect and
// refract, on incoherent rays of mixed octants, on rays in split planes (the groups traced one
// ray at a time) and on batches of any length.
#include <catch2/catch.hpp>
#include <cmath>
#include <glm/geometric.hpp>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/kdtree/triangle_kdtree.h"
#include "sim/kdtree/triangle_packet.h"
#include "sim/kdtree/triangle_ray.h"
#include "tests/sim/kdtree/triangle_test_meshes.h"

namespace meniscus::sim::kdtree {
namespace {

using test::Mesh;

// A camera's rays through side x side pixels in blocks of 4 x 4 (as the tracer hands them
// over), then the reflected and the refracted ray of each hit, from just off the surface.
std::vector<Ray> camera_and_secondary_rays(const TriangleKdTree& tree, int side) {
  const glm::vec3 centre = 0.5f * (tree.lo + tree.hi);
  const float radius = 0.5f * glm::length(tree.hi - tree.lo);
  const glm::vec3 eye = centre + 2.2f * radius * glm::normalize(glm::vec3(0.6f, 0.45f, 0.66f));
  const glm::vec3 forward = glm::normalize(centre - eye);
  const glm::vec3 right = glm::normalize(glm::cross(forward, glm::vec3(0.0f, 1.0f, 0.0f)));
  const glm::vec3 up = glm::cross(right, forward);
  std::vector<Ray> rays;
  for (int by = 0; by < side; by += 4)
    for (int bx = 0; bx < side; bx += 4)
      for (int y = by; y < by + 4; ++y)
        for (int x = bx; x < bx + 4; ++x) {
          const float u = (x + 0.5f) / side * 2.0f - 1.0f, v = (y + 0.5f) / side * 2.0f - 1.0f;
          rays.push_back({eye, forward * 2.2f + right * u + up * v});
        }
  const size_t primary = rays.size();
  for (size_t i = 0; i < primary; ++i) {
    const RayHit hit = trace_closest(tree, rays[i]);
    if (!hit.hit()) continue;
    const glm::vec3 d = glm::normalize(rays[i].direction);
    glm::vec3 n = glm::normalize(hit.normal);
    if (glm::dot(n, d) > 0.0f) n = -n;
    const glm::vec3 p = rays[i].origin + hit.t * rays[i].direction;
    rays.push_back({p + 1e-4f * n, glm::reflect(d, n)});
    const glm::vec3 refracted = glm::refract(d, n, 1.0f / 1.33f);
    if (glm::length(refracted) > 0.0f) rays.push_back({p - 1e-4f * n, refracted});
  }
  return rays;
}

// Rays from anywhere in (or a little around) the box in any direction, some with a limited
// interval: neighbours in the batch share nothing, and octants mix within a group.
std::vector<Ray> scattered_rays(const TriangleKdTree& tree, size_t count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> unit(-0.1f, 1.1f), sign(-1.0f, 1.0f);
  std::vector<Ray> rays;
  for (size_t i = 0; i < count; ++i) {
    const glm::vec3 f(unit(rng), unit(rng), unit(rng));
    Ray ray{tree.lo + f * (tree.hi - tree.lo), {sign(rng), sign(rng), sign(rng)}};
    if (i % 5 == 0) ray.t_min = 0.05f;
    if (i % 3 == 0) ray.t_max = 0.3f;
    rays.push_back(ray);
  }
  return rays;
}

// How many rays' packet hits differ from the single traversal's in any field.
size_t differing(const TriangleKdTree& tree, const std::vector<Ray>& rays, RayKernels kernels) {
  std::vector<RayHit> packets(rays.size());
  trace_closest_packets(view_of(tree), rays, packets, kernels);
  size_t differ = 0;
  for (size_t i = 0; i < rays.size(); ++i) {
    const RayHit single = trace_closest(tree, rays[i]);
    const RayHit& p = packets[i];
    differ += !(p.triangle == single.triangle && (p.t == single.t || (!p.hit() && !single.hit())) &&
                p.u == single.u && p.v == single.v && p.normal == single.normal);
  }
  return differ;
}

constexpr RayKernels kKernels[] = {RayKernels::kFastest, RayKernels::kAvx2, RayKernels::kSingle};

TEST_CASE("ray packets: every lane's hit is the single traversal's, on coherent and scattered rays", "[kdtree][triangles]") {
  if (std::string(ray_kernels_name(RayKernels::kFastest)) == "single")
    WARN("this CPU has neither AVX-512 nor AVX2: only single rays are compared");
  const Mesh soup = test::random_soup(20000, 5);
  const TriangleKdTree tree = build_triangle_kdtree(soup.vertices, soup.indices);
  std::vector<Ray> rays = camera_and_secondary_rays(tree, 96);
  const size_t coherent = rays.size();
  const std::vector<Ray> scattered = scattered_rays(tree, 20003, 9);  // not a whole number of groups
  rays.insert(rays.end(), scattered.begin(), scattered.end());
  size_t hits = 0;
  for (const Ray& ray : rays) hits += trace_closest(tree, ray).hit();
  INFO(coherent << " camera and secondary rays, " << scattered.size() << " scattered, " << hits << " hits");
  REQUIRE(hits > rays.size() / 4);  // the comparison means something
  for (const RayKernels kernels : kKernels) {
    INFO("kernels: " << ray_kernels_name(kernels));
    CHECK(differing(tree, rays, kernels) == 0);
  }
}

TEST_CASE("ray packets: Lucy's camera rays and their reflections and refractions, to the bit", "[kdtree][triangles][slow]") {
  const Mesh lucy = test::read_triangles("scenes/data/vtk-data/lucy.ply");
  const TriangleKdTree tree = build_triangle_kdtree(lucy.vertices, lucy.indices);
  const std::vector<Ray> rays = camera_and_secondary_rays(tree, 128);
  for (const RayKernels kernels : kKernels) {
    INFO("kernels: " << ray_kernels_name(kernels) << ", " << rays.size() << " rays");
    CHECK(differing(tree, rays, kernels) == 0);
  }
}

TEST_CASE("ray packets: rays in split planes and along them, from on them or outside", "[kdtree][triangles]") {
  const Mesh cube = test::grid_cube(16);
  const TriangleKdTree tree = build_triangle_kdtree(cube.vertices, cube.indices);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::vector<Ray> rays;
  for (int i = 0; i < 8000; ++i) {
    // Groups of 16 share a start and head alike, so most groups are packets; every third
    // group has a lane in a split's plane, which sends the group to single rays.
    const int group = i / 16;
    std::mt19937 group_rng(group);
    glm::vec3 origin(unit(group_rng), unit(group_rng), unit(group_rng));
    glm::vec3 direction = glm::vec3(unit(group_rng), unit(group_rng), unit(group_rng)) - 0.5f;
    direction += 0.01f * glm::vec3(unit(rng), unit(rng), unit(rng));
    if (group % 3 == 0 && i % 16 == 5) {
      origin[group % 3] = 0.5f;
      direction[group % 3] = (group / 3) % 2 ? 0.0f : -0.0f;
    }
    if (group % 4 == 1) origin = 0.5f * origin - glm::vec3(1.0f);  // from outside
    rays.push_back({origin, direction, 1e-4f});
  }
  for (const RayKernels kernels : kKernels) {
    INFO("kernels: " << ray_kernels_name(kernels));
    CHECK(differing(tree, rays, kernels) == 0);
  }
}

TEST_CASE("ray packets: an empty tree misses, an empty batch is fine, a short hit list is refused", "[kdtree][triangles]") {
  const TriangleKdTree empty = build_triangle_kdtree({}, {});
  const std::vector<Ray> rays(5, Ray{{0.0f, 0.0f, -1.0f}, {0.0f, 0.0f, 1.0f}});
  std::vector<RayHit> hits(rays.size());
  for (const RayKernels kernels : kKernels) {
    trace_closest_packets(view_of(empty), rays, hits, kernels);
    for (const RayHit& hit : hits) CHECK(!hit.hit());
    trace_closest_packets(view_of(empty), {}, {}, kernels);
    std::vector<RayHit> short_list(rays.size() - 1);
    CHECK_THROWS_AS(trace_closest_packets(view_of(empty), rays, short_list, kernels), std::invalid_argument);
  }
}

}  // namespace
}  // namespace meniscus::sim::kdtree
