// Host side of the CUDA backend. The build runs on the GPU (build_cuda*.cu) with R estimated
// here from the small roots it hands back. For the KNN, Algorithm 7's table and the Morton order come from the CPU
// backend's code (they are the same inputs either way), the searches run on the GPU.
#include "sim/kdtree/kdtree_cuda.h"

#include <algorithm>
#include <chrono>
#include <string>

#include "engine/core/error.h"
#include "sim/kdtree/build_cuda_launch.h"
#include "sim/kdtree/build_state.h"
#include "sim/kdtree/knn_cuda_launch.h"
#include "sim/kdtree/radius_estimate.h"

namespace meniscus::sim::kdtree {

bool cuda_knn_available(std::string* why) { return cuda_device_answers(why); }

KdTree build_kdtree_cuda(std::span<const glm::vec3> points, const KdTreeParams& params) {
  validate_points(points);
  validate_build_params(params);
  std::string why;
  if (!cuda_device_answers(&why)) throw DeviceError("kdtree build (cuda): " + why);
  KdTree tree;
  tree.k = params.k;
  if (points.empty()) return tree;
  const size_t n = points.size();
  std::vector<float> x(n), y(n), z(n);
  for (size_t i = 0; i < n; ++i) {
    x[i] = points[i].x;
    y[i] = points[i].y;
    z[i] = points[i].z;
  }
  CudaBuildResult built;
  const RadiusFromSmallRoots rule = [&](const Aabb* boxes, const uint32_t* counts, size_t roots) {
    return estimate_query_radius(boxes, counts, roots, params.k);
  };
  run_build_cuda(x.data(), y.data(), z.data(), uint32_t(n), params.query_radius, params.traversal_cost, rule, built);
  tree.nodes.assign(built.nodes.begin(), built.nodes.end());
  tree.x.assign(built.x.begin(), built.x.end());
  tree.y.assign(built.y.begin(), built.y.end());
  tree.z.assign(built.z.begin(), built.z.end());
  tree.ids.assign(built.ids.begin(), built.ids.end());
  tree.query_radius = built.query_radius;
  tree.stats.large_levels = built.large_levels;
  tree.stats.small_levels = built.small_levels;
  tree.stats.small_roots = built.small_roots;
  tree.stats.leaves = built.leaves;
  tree.stats.forced_leaves = built.forced_leaves;
  tree.stats.max_depth = built.max_depth;
  tree.stats.large_ms = built.large_ms;
  tree.stats.small_ms = built.small_ms;
  tree.stats.output_ms = built.output_ms;
  return tree;
}

KnnResult knn_all_cuda(const KdTree& tree, const KnnParams& params) {
  if (params.k == 0 || params.k > kCudaMaxK)
    throw InputError("kdtree knn (cuda): k must be in [1, " + std::to_string(kCudaMaxK) + "], got " + std::to_string(params.k));
  if (params.histogram_bins < 2 || params.histogram_bins > kMaxHistogramBins)
    throw InputError("kdtree knn (cuda): histogram_bins must be in [2, " + std::to_string(kMaxHistogramBins) + "]");
  std::string why;
  if (!cuda_device_answers(&why)) throw DeviceError("kdtree knn (cuda): " + why);
  KnnResult result;
  if (tree.size() == 0) return result;
  const uint32_t k = std::min<uint32_t>(params.k, uint32_t(tree.size()));
  result.k = k;
  result.indices.resize(tree.size() * k);
  result.distances.resize(tree.size() * k);

  auto start = std::chrono::steady_clock::now();
  const RadiusTable table = precompute_radii(tree, k, params);
  result.stats.estimate_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  result.stats.radius_nodes = table.computed;

  const KdNode& root = tree.nodes[0];
  const Aabb box{{root.lo[0], root.lo[1], root.lo[2]}, {root.hi[0], root.hi[1], root.hi[2]}};
  std::vector<uint64_t> keys(tree.size());
  for (size_t s = 0; s < tree.size(); ++s) keys[s] = (uint64_t(morton_code(box, tree.x[s], tree.y[s], tree.z[s])) << 32) | s;
  std::sort(keys.begin(), keys.end());
  std::vector<uint32_t> order(tree.size());
  for (size_t i = 0; i < keys.size(); ++i) order[i] = uint32_t(keys[i]);

  const CudaKnnInput in{tree.nodes.data(), uint32_t(tree.nodes.size()), tree.stats.max_depth,
                        tree.x.data(), tree.y.data(), tree.z.data(), tree.ids.data(), uint32_t(tree.size()),
                        table.node_radius.data(), table.node_centre.data(), table.radius,
                        order.data(), uint32_t(order.size()), k, params.histogram_bins, params.iterations};
  run_knn_cuda(in, result.indices.data(), result.distances.data(), &result.stats.search_ms);
  result.stats.kernels = "cuda";
  return result;
}

}  // namespace meniscus::sim::kdtree
