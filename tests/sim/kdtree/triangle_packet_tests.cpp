// Ray packets through the triangle kd-tree against the single traversal, which the other tests
// hold to the brute force: every lane's hit (t, triangle, barycentrics, normal) equal to the
// bit, for every kernel this CPU has, on coherent camera rays and the rays they reflect and
// refract, on incoherent rays of mixed octants, on rays in split planes (the groups traced one
// ray at a time) and on batches of any length.
#include <algorithm>
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
  const test::BoxCamera camera(tree.lo, tree.hi);
  std::vector<Ray> rays;
  for (int by = 0; by < side; by += 4)
    for (int bx = 0; bx < side; bx += 4)
      for (int y = by; y < by + 4; ++y)
        for (int x = bx; x < bx + 4; ++x) rays.push_back(camera.through(x, y, side));
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

// How many rays' packet hits differ from the single traversal's in any field; `in_packets`: how
// many rays walked in packets.
size_t differing(const TriangleKdTree& tree, const std::vector<Ray>& rays, RayKernels kernels,
                 size_t* in_packets = nullptr) {
  std::vector<RayHit> packets(rays.size());
  const size_t walked = trace_closest_packets(view_of(tree), rays, packets, kernels);
  if (in_packets) *in_packets = walked;
  size_t differ = 0;
  for (size_t i = 0; i < rays.size(); ++i) {
    const RayHit single = trace_closest(tree, rays[i]);
    const RayHit& p = packets[i];
    differ += !(p.triangle == single.triangle && (p.t == single.t || (!p.hit() && !single.hit())) && p.u == single.u &&
                p.v == single.v && p.normal == single.normal);
  }
  return differ;
}

constexpr RayKernels kKernels[] = {RayKernels::kFastest, RayKernels::kAvx2, RayKernels::kSingle};

TEST_CASE("ray packets: every lane's hit is the single traversal's, on coherent and scattered rays",
          "[kdtree][triangles]") {
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
    const std::string name = ray_kernels_name(kernels);
    INFO("kernels: " << name);
    size_t in_packets = 0;
    CHECK(differing(tree, rays, kernels, &in_packets) == 0);
    // The comparison is of packets: nearly all camera and secondary rays walk in them.
    if (name == "single")
      CHECK(in_packets == 0);
    else
      CHECK(in_packets > coherent * 9 / 10);
  }
}

TEST_CASE("ray packets: Lucy's camera rays and their reflections and refractions, to the bit",
          "[kdtree][triangles][slow]") {
  const Mesh lucy = test::read_triangles("scenes/data/vtk-data/lucy.ply");
  const TriangleKdTree tree = build_triangle_kdtree(lucy.vertices, lucy.indices);
  const std::vector<Ray> rays = camera_and_secondary_rays(tree, 128);
  for (const RayKernels kernels : kKernels) {
    INFO("kernels: " << ray_kernels_name(kernels) << ", " << rays.size() << " rays");
    CHECK(differing(tree, rays, kernels) == 0);
  }
}

// Whether some interior node splits `axis` at `split`.
bool has_split(const TriangleKdTree& tree, uint32_t axis, float split) {
  return std::any_of(tree.nodes.begin(), tree.nodes.end(),
                     [&](const TriangleKdNode& n) { return !n.is_leaf() && n.axis() == axis && n.split() == split; });
}

TEST_CASE("ray packets: rays in split planes and along them, axis-aligned, from outside, with odd intervals",
          "[kdtree][triangles]") {
  const Mesh cube = test::grid_cube(16);
  const TriangleKdTree tree = build_triangle_kdtree(cube.vertices, cube.indices);
  for (uint32_t axis = 0; axis < 3; ++axis) REQUIRE(has_split(tree, axis, 0.5f));
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::vector<Ray> rays;
  for (int i = 0; i < 12000; ++i) {
    // Groups of 16 share a start and head alike, so most groups are packets.
    const int group = i / 16, lane = i % 16;
    std::mt19937 group_rng(group);
    glm::vec3 origin(unit(group_rng), unit(group_rng), unit(group_rng));
    glm::vec3 direction = glm::vec3(unit(group_rng), unit(group_rng), unit(group_rng)) - 0.5f;
    direction += 0.01f * glm::vec3(unit(rng), unit(rng), unit(rng));
    Ray ray{origin, direction, 1e-4f};
    switch (group % 6) {
      case 0: {  // one lane in a split's plane, running along it (+0 or -0): the group goes single
        const int axis = (group / 6) % 3;
        if (lane == 5) {
          ray.origin[axis] = 0.5f;
          ray.direction[axis] = (group / 18) % 2 ? 0.0f : -0.0f;
        }
        break;
      }
      case 1:  // from outside the box
        ray.origin = 0.5f * origin - glm::vec3(1.0f);
        break;
      case 2: {  // along an axis, exactly, either way, some starting on a grid plane
        const int axis = lane % 3;
        ray.direction = glm::vec3(0.0f);
        ray.direction[axis] = lane % 2 ? 1.0f : -1.0f;
        if (lane % 4 == 0) ray.origin[(axis + 1) % 3] = 0.25f;
        break;
      }
      case 3:  // parallel to a face, outside the box beside it: nothing to hit
        ray.origin = glm::vec3(-0.5f, unit(group_rng), unit(group_rng));
        ray.direction = glm::vec3(0.0f, 0.3f, lane % 2 ? 1.0f : -1.0f);
        break;
      case 4:  // empty and inverted intervals, and ones that end early
        ray.t_min = lane % 3 == 0 ? 0.5f : 0.0f;
        ray.t_max = lane % 3 == 0 ? 0.25f : (lane % 3 == 1 ? 0.0f : 0.05f * lane);
        break;
      default:
        break;
    }
    rays.push_back(ray);
  }
  for (const RayKernels kernels : kKernels) {
    INFO("kernels: " << ray_kernels_name(kernels));
    CHECK(differing(tree, rays, kernels) == 0);
  }
  // Against the brute force too, so that the single traversal's own answer is checked here.
  size_t wrong = 0;
  for (const Ray& ray : rays) {
    const RayHit a = trace_closest(tree, ray), b = brute_force_closest(cube.vertices, cube.indices, ray);
    wrong += a.hit() != b.hit() || (b.hit() && std::abs(a.t - b.t) > 1e-5f * std::max(1.0f, b.t));
  }
  CHECK(wrong == 0);
}

TEST_CASE("triangle traversal: a ray parallel to a face of the box, outside it, reaches it nowhere",
          "[kdtree][triangles]") {
  // Its slab test gives +inf for the entry: the walk must not start (a NaN interval would visit
  // every node).
  const Ray ray{{-0.5f, 0.5f, 0.5f}, {0.0f, 1.0f, 0.0f}};
  float t0 = 0.0f, t1 = 0.0f;
  CHECK_FALSE(traversal::clip_to_box(ray, glm::vec3(0.0f), glm::vec3(1.0f), t0, t1));
  const Ray inside{{0.5f, 0.5f, 0.5f}, {0.0f, 1.0f, 0.0f}};
  CHECK(traversal::clip_to_box(inside, glm::vec3(0.0f), glm::vec3(1.0f), t0, t1));
}

TEST_CASE("ray packets: an empty tree misses, an empty batch is fine, a short hit list is refused",
          "[kdtree][triangles]") {
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
