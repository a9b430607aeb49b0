// build_triangle_kdtree_cuda (triangle_kdtree_cuda.h): the host arrays copied over, the device
// build, and its preorder arrays copied back with the statistics the CPU build reports.
#include "sim/kdtree/triangle_kdtree_cuda.h"

#include <chrono>
#include <string>

#include "engine/core/error.h"
#include "sim/kdtree/triangle_build_cuda.h"
#include "sim/kdtree/triangle_kdtree_build.h"

namespace meniscus::sim::kdtree {

bool triangle_kdtree_cuda_available(std::string* why) { return cuda_device_answers(why); }

TriangleKdTree build_triangle_kdtree_cuda(std::span<const glm::vec3> vertices, std::span<const uint32_t> indices,
                                          const TriangleKdParams& params) {
  validate_triangle_kd_params(params);
  validate_index_count(indices.size());
  std::string why;
  if (!cuda_device_answers(&why)) throw DeviceError("triangle kd-tree (cuda): " + why);
  DeviceArray<glm::vec3> device_vertices;
  DeviceArray<uint32_t> device_indices;
  device_vertices.reserve(std::max<size_t>(vertices.size(), 1), "the mesh's vertices");
  device_indices.reserve(std::max<size_t>(indices.size(), 1), "the mesh's indices");
  MENISCUS_SIM_CUDA_CHECK(
      cudaMemcpy(device_vertices.get(), vertices.data(), vertices.size_bytes(), cudaMemcpyHostToDevice));
  MENISCUS_SIM_CUDA_CHECK(
      cudaMemcpy(device_indices.get(), indices.data(), indices.size_bytes(), cudaMemcpyHostToDevice));
  MENISCUS_SIM_CUDA_CHECK(cudaDeviceSynchronize());

  DeviceTriangleKdTree device;
  const auto start = std::chrono::steady_clock::now();
  device.build(device_vertices.get(), uint32_t(vertices.size()), device_indices.get(), uint32_t(indices.size() / 3),
               params);
  MENISCUS_SIM_CUDA_CHECK(cudaDeviceSynchronize());
  const double build_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();

  TriangleKdTree tree;
  const DeviceTriangleKdCounts& counts = device.counts();
  tree.nodes = device.download_nodes();
  tree.leaf_triangles = device.download_leaf_triangles();
  tree.leaf_geometry = device.download_leaf_geometry();
  tree.lo = device.lo();
  tree.hi = device.hi();
  tree.stats.triangles = counts.triangles;
  tree.stats.skipped = counts.skipped;
  tree.stats.large_levels = counts.large_levels;
  tree.stats.small_roots = counts.small_roots;
  add_preorder_stats(tree, params.traversal_cost);
  tree.stats.build_ms = build_ms;
  return tree;
}

}  // namespace meniscus::sim::kdtree
