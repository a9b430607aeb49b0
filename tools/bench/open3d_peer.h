#pragma once
// Open3D (libopen3d-dev, bench only) as a peer: its KD-tree for KNN, its screened Poisson
// reconstruction, and its Embree-backed point-to-mesh distances, with which both our surface and
// Poisson's are measured, so that neither side grades itself. Every function returns nullopt
// when the benchmark was built without Open3D (open3d_peer_absent.cpp).
#include <optional>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "tools/bench/peers.h"

namespace meniscus::bench {

// open3d::geometry::KDTreeFlann over the points (built on one thread), then SearchKNN for every
// point, queried in `order` in parallel on the TBB threads allowed.
std::optional<KnnPeerResult> open3d_knn(std::span<const glm::vec3> points, uint32_t k, std::span<const uint32_t> order);

struct PoissonPeerResult {
  double normals_ms = 0;  // estimating and orienting normals (0 when they were given)
  double poisson_ms = 0;
  std::vector<glm::vec3> vertices;
  std::vector<glm::uvec3> triangles;
};

// TriangleMesh::CreateFromPointCloudPoisson at `depth` on `threads` threads. `normals` empty:
// Open3D estimates them (EstimateNormals over `normal_neighbours` neighbours) and orients them
// (OrientNormalsConsistentTangentPlane), both timed in normals_ms.
std::optional<PoissonPeerResult> open3d_poisson(std::span<const glm::vec3> points, std::span<const glm::vec3> normals,
                                                int depth, int threads, int normal_neighbours = 16);

// Unsigned distance from each point to the nearest point of the triangle mesh
// (t::geometry::RaycastingScene::ComputeDistance).
std::optional<std::vector<float>> open3d_distances_to_mesh(std::span<const glm::vec3> vertices,
                                                           std::span<const glm::uvec3> triangles,
                                                           std::span<const glm::vec3> points);

const char* open3d_version();

}  // namespace meniscus::bench
