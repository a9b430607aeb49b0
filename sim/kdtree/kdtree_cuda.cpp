// The CUDA backend over host arrays (kdtree_cuda.h): copies in, the device tree and search,
// copies out.
#include "sim/kdtree/kdtree_cuda.h"

#include <algorithm>
#include <chrono>
#include <string>

#include "engine/core/error.h"
#include "sim/kdtree/device_kdtree.h"
#include "sim/kdtree/device_knn_params.h"

namespace meniscus::sim::kdtree {
namespace {

static_assert(kCudaMaxK == kDeviceMaxK);

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

template <class T>
void upload(DeviceArray<T>& device, const T* host, size_t count, const char* what) {
  device.reserve(std::max<size_t>(count, 1), what);
  if (count) MENISCUS_SIM_CUDA_CHECK(cudaMemcpy(device.get(), host, sizeof(T) * count, cudaMemcpyHostToDevice));
}

// A host tree copied to the device, for a search.
struct UploadedTree {
  DeviceArray<KdNode> nodes;
  DeviceArray<float> x, y, z, radius;
  DeviceArray<uint32_t> ids;
  DeviceKdView view;

  explicit UploadedTree(const KdTree& tree) {
    const char* what = "kdtree knn (cuda): the tree";
    upload(nodes, tree.nodes.data(), tree.nodes.size(), what);
    upload(x, tree.x.data(), tree.size(), what);
    upload(y, tree.y.data(), tree.size(), what);
    upload(z, tree.z.data(), tree.size(), what);
    upload(ids, tree.ids.data(), tree.size(), what);
    upload(radius, &tree.query_radius, 1, what);
    view = {nodes.get(), uint32_t(tree.nodes.size()), tree.stats.max_depth, x.get(), y.get(), z.get(),
            ids.get(),   uint32_t(tree.size()),       radius.get()};
  }
};

void require_device(const char* what) {
  std::string why;
  if (!cuda_device_answers(&why)) throw DeviceError(std::string(what) + ": " + why);
}

DeviceKnnParams device_params(const KnnParams& params, uint32_t k) {
  if (params.k == 0 || params.k > kCudaMaxK)
    throw InputError("kdtree knn (cuda): k must be in [1, " + std::to_string(kCudaMaxK) + "], got " +
                     std::to_string(params.k));
  if (params.histogram_bins < 2 || params.histogram_bins > kMaxHistogramBins)
    throw InputError("kdtree knn (cuda): histogram_bins must be in [2, " + std::to_string(kMaxHistogramBins) + "]");
  return device_knn_params(params, k);
}

// The queries (x, y, z on the device, in `order`, rows in `rows`) over `tree`, brought back.
KnnResult search(const KdTree& tree, const KnnParams& params, const float* x, const float* y, const float* z,
                 const uint32_t* order, const uint32_t* rows, uint32_t count, bool own_points) {
  KnnResult result;
  const uint32_t k = std::min<uint32_t>(params.k, uint32_t(tree.size()));
  const DeviceKnnParams shape = device_params(params, k);
  if (tree.size() == 0 || count == 0) return result;
  result.k = k;
  const UploadedTree device(tree);
  DeviceKnn knn;
  auto start = Clock::now();
  knn.prepare(device.view, shape, nullptr);
  result.stats.radius_nodes = knn.radius_nodes();  // waits
  result.stats.estimate_ms = ms_since(start);

  DeviceArray<uint32_t> indices;
  DeviceArray<float> distances;
  indices.reserve(size_t(count) * k, "kdtree knn (cuda): the neighbours");
  distances.reserve(size_t(count) * k, "kdtree knn (cuda): the neighbours");
  start = Clock::now();
  knn.search(device.view, {x, y, z, order, rows, count, own_points}, indices.get(), distances.get(), nullptr);
  MENISCUS_SIM_CUDA_CHECK(cudaDeviceSynchronize());
  result.stats.search_ms = ms_since(start);
  result.stats.kernels = "cuda";
  const std::vector<uint32_t> i = indices.download(size_t(count) * k);
  const std::vector<float> d = distances.download(size_t(count) * k);
  result.indices.assign(i.begin(), i.end());
  result.distances.assign(d.begin(), d.end());
  return result;
}

}  // namespace

bool cuda_knn_available(std::string* why) { return cuda_device_answers(why); }

KdTree build_kdtree_cuda(std::span<const glm::vec3> points, const KdTreeParams& params) {
  // Non-finite points are the device build's to refuse (the photons' tree has no host copy).
  if (points.size() >= size_t(UINT32_MAX))
    throw InputError("kdtree build (cuda): " + std::to_string(points.size()) +
                     " points; at most 2^32 - 1 are supported");
  validate_build_params(params);
  require_device("kdtree build (cuda)");
  KdTree tree;
  tree.k = params.k;
  if (points.empty()) return tree;
  DeviceCoordinates device;
  device.upload(points.data(), points.size(), "kdtree build (cuda): the points");
  DeviceKdTree built;
  built.build(device.axis[0].get(), device.axis[1].get(), device.axis[2].get(), uint32_t(points.size()), params.k,
              params.query_radius, params.traversal_cost);
  const std::vector<KdNode> nodes = built.download_nodes();
  const std::vector<float> x = built.download_x(), y = built.download_y(), z = built.download_z();
  const std::vector<uint32_t> ids = built.download_ids();
  tree.nodes.assign(nodes.begin(), nodes.end());
  tree.x.assign(x.begin(), x.end());
  tree.y.assign(y.begin(), y.end());
  tree.z.assign(z.begin(), z.end());
  tree.ids.assign(ids.begin(), ids.end());
  tree.query_radius = built.download_query_radius();
  const DeviceKdCounts& c = built.counts();
  tree.stats.large_levels = c.large_levels;
  tree.stats.small_levels = c.small_levels;
  tree.stats.small_roots = c.small_roots;
  tree.stats.leaves = c.leaves;
  tree.stats.forced_leaves = c.forced_leaves;
  tree.stats.max_depth = c.max_depth;
  tree.stats.large_ms = c.large_ms;
  tree.stats.small_ms = c.small_ms;
  tree.stats.output_ms = c.output_ms;
  return tree;
}

KnnResult knn_all_cuda(const KdTree& tree, const KnnParams& params) {
  device_params(params, params.k);  // bad parameters before the device is asked
  require_device("kdtree knn (cuda)");
  if (tree.size() == 0) return {};
  // The tree's own points, each searched from its slot, in Morton order; rows are input indices.
  const KdNode& root = tree.nodes[0];
  const Aabb box{{root.lo[0], root.lo[1], root.lo[2]}, {root.hi[0], root.hi[1], root.hi[2]}};
  std::vector<uint64_t> keys(tree.size());
  for (size_t s = 0; s < tree.size(); ++s) keys[s] = (uint64_t(morton_code(box, tree.x[s], tree.y[s], tree.z[s])) << 32) | s;
  std::sort(keys.begin(), keys.end());
  std::vector<uint32_t> order(tree.size());
  for (size_t i = 0; i < keys.size(); ++i) order[i] = uint32_t(keys[i]);
  DeviceArray<float> x, y, z;
  DeviceArray<uint32_t> slots, rows;
  const char* what = "kdtree knn (cuda): the queries";
  upload(x, tree.x.data(), tree.size(), what);
  upload(y, tree.y.data(), tree.size(), what);
  upload(z, tree.z.data(), tree.size(), what);
  upload(slots, order.data(), order.size(), what);
  upload(rows, tree.ids.data(), tree.size(), what);
  return search(tree, params, x.get(), y.get(), z.get(), slots.get(), rows.get(), uint32_t(tree.size()), true);
}

KnnResult knn_cuda(const KdTree& tree, std::span<const glm::vec3> queries, const KnnParams& params) {
  validate_points(queries, "query");
  device_params(params, params.k);
  require_device("kdtree knn (cuda)");
  DeviceCoordinates device;
  device.upload(queries.data(), queries.size(), "kdtree knn (cuda): the queries");
  return search(tree, params, device.axis[0].get(), device.axis[1].get(), device.axis[2].get(), nullptr, nullptr,
                uint32_t(queries.size()), false);
}

}  // namespace meniscus::sim::kdtree
