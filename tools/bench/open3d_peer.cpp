// Open3D as the KNN, reconstruction and distance peer (open3d_peer.h).
#include "tools/bench/open3d_peer.h"

#include <open3d/Open3D.h>
#include <open3d/t/geometry/RaycastingScene.h>
#include <tbb/parallel_for.h>

#include <chrono>
#include <cmath>
#include <limits>

#include "engine/profile/cpu_timer.h"

namespace meniscus::bench {
namespace {

using Clock = std::chrono::steady_clock;
using profile::ms_since;

std::vector<Eigen::Vector3d> to_eigen(std::span<const glm::vec3> points) {
  std::vector<Eigen::Vector3d> out(points.size());
  for (size_t i = 0; i < points.size(); ++i) out[i] = {points[i].x, points[i].y, points[i].z};
  return out;
}

}  // namespace

std::optional<KnnPeerResult> open3d_knn(std::span<const glm::vec3> points, uint32_t k, std::span<const uint32_t> order) {
  KnnPeerResult result;
  open3d::geometry::PointCloud cloud(to_eigen(points));
  auto start = Clock::now();
  open3d::geometry::KDTreeFlann tree(cloud);
  result.build_ms = ms_since(start);

  result.kth_distance.resize(points.size());
  start = Clock::now();
  tbb::parallel_for(tbb::blocked_range<size_t>(0, order.size(), 128), [&](const tbb::blocked_range<size_t>& range) {
    std::vector<int> indices;
    std::vector<double> d2;
    for (size_t at = range.begin(); at != range.end(); ++at) {
      const uint32_t i = order[at];
      const int found = tree.SearchKNN(cloud.points_[i], int(k), indices, d2);
      result.kth_distance[i] = found > 0 ? float(std::sqrt(d2[size_t(found) - 1])) : 0.0f;
    }
  });
  result.knn_ms = ms_since(start);
  return result;
}

std::optional<PoissonPeerResult> open3d_poisson(std::span<const glm::vec3> points, std::span<const glm::vec3> normals,
                                                int depth, int threads, int normal_neighbours) {
  PoissonPeerResult result;
  open3d::geometry::PointCloud cloud(to_eigen(points));
  auto start = Clock::now();
  if (normals.empty()) {
    cloud.EstimateNormals(open3d::geometry::KDTreeSearchParamKNN(normal_neighbours));
    cloud.OrientNormalsConsistentTangentPlane(size_t(normal_neighbours));
    result.normals_ms = ms_since(start);
  } else {
    cloud.normals_ = to_eigen(normals);
  }
  start = Clock::now();
  auto [mesh, densities] = open3d::geometry::TriangleMesh::CreateFromPointCloudPoisson(cloud, size_t(depth), 0.0f, 1.1f,
                                                                                      false, threads);
  result.poisson_ms = ms_since(start);
  result.vertices.reserve(mesh->vertices_.size());
  for (const Eigen::Vector3d& v : mesh->vertices_) result.vertices.emplace_back(float(v.x()), float(v.y()), float(v.z()));
  result.triangles.reserve(mesh->triangles_.size());
  for (const Eigen::Vector3i& t : mesh->triangles_) result.triangles.emplace_back(uint32_t(t.x()), uint32_t(t.y()), uint32_t(t.z()));
  return result;
}

std::optional<std::vector<float>> open3d_distances_to_mesh(std::span<const glm::vec3> vertices,
                                                           std::span<const glm::uvec3> triangles,
                                                           std::span<const glm::vec3> points) {
  namespace core = open3d::core;
  if (triangles.empty()) return std::vector<float>(points.size(), std::numeric_limits<float>::infinity());
  std::vector<float> v(3 * vertices.size()), q(3 * points.size());
  std::vector<uint32_t> t(3 * triangles.size());
  for (size_t i = 0; i < vertices.size(); ++i)
    for (int a = 0; a < 3; ++a) v[3 * i + a] = vertices[i][a];
  for (size_t i = 0; i < triangles.size(); ++i)
    for (int a = 0; a < 3; ++a) t[3 * i + a] = triangles[i][a];
  for (size_t i = 0; i < points.size(); ++i)
    for (int a = 0; a < 3; ++a) q[3 * i + a] = points[i][a];
  open3d::t::geometry::RaycastingScene scene;
  scene.AddTriangles(core::Tensor(v, {int64_t(vertices.size()), 3}, core::Float32),
                     core::Tensor(t, {int64_t(triangles.size()), 3}, core::UInt32));
  const core::Tensor d = scene.ComputeDistance(core::Tensor(q, {int64_t(points.size()), 3}, core::Float32));
  const float* data = d.GetDataPtr<float>();
  return std::vector<float>(data, data + points.size());
}

const char* open3d_version() {
  static const std::string version = std::string("open3d-") + OPEN3D_VERSION;
  return version.c_str();
}

}  // namespace meniscus::bench
