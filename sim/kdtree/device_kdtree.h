#pragma once
// The point kd-tree built on the CUDA device from points already there, and kept there for the
// device KNN search (device_knn.h): Zhou et al. 2008 Algorithm 1 as the paper runs it on a GPU
// (build_cuda*.cu), with the CPU build's rules, so it is the CPU's tree node for node. R of the
// VVH cost, when the caller gives none, is estimated on the device from the small roots, as the
// CPU does (small_root_radius, kdtree_rules.h), between the large and the small stage. The host
// reads a few counts a level. C++17 (nvcc includes it); CUDA builds only.
#include <cuda_runtime.h>

#include <glm/vec3.hpp>
#include <memory>
#include <vector>

#include "sim/common/cuda_support.cuh"
#include "sim/kdtree/kdtree_rules.h"

namespace meniscus::sim::kdtree {

// Points as three coordinate arrays on the device, as the tree's build and the search read them.
struct DeviceCoordinates {
  DeviceArray<float> axis[3];

  // Room for `count` points (at least one); the contents go where it grows.
  void reserve(size_t count, const char* what) {
    for (DeviceArray<float>& a : axis) a.reserve(count > 0 ? count : 1, what);
  }
  // `count` host points copied over.
  void upload(const glm::vec3* points, size_t count, const char* what) {
    reserve(count, what);
    std::vector<float> host(count);
    for (int a = 0; a < 3; ++a) {
      for (size_t i = 0; i < count; ++i) host[i] = points[i][a];
      if (count)
        MENISCUS_SIM_CUDA_CHECK(cudaMemcpy(axis[a].get(), host.data(), count * sizeof(float), cudaMemcpyHostToDevice));
    }
  }
  // The first `count` points brought back.
  std::vector<glm::vec3> download(size_t count) const {
    const std::vector<float> x = axis[0].download(count), y = axis[1].download(count), z = axis[2].download(count);
    std::vector<glm::vec3> points(count);
    for (size_t i = 0; i < count; ++i) points[i] = {x[i], y[i], z[i]};
    return points;
  }
};

// What a device search reads: the preorder nodes, the points in leaf order with their input
// indices, and R.
struct DeviceKdView {
  const KdNode* nodes = nullptr;
  uint32_t node_count = 0;
  uint32_t max_depth = 0;
  const float *x = nullptr, *y = nullptr, *z = nullptr;
  const uint32_t* ids = nullptr;
  uint32_t points = 0;
  const float* query_radius = nullptr;  // one float on the device: R, 0 where there was none to estimate
};

struct DeviceKdCounts {
  uint32_t points = 0, nodes = 0;
  uint32_t large_levels = 0, small_levels = 0, small_roots = 0, leaves = 0, forced_leaves = 0, max_depth = 0;
  double large_ms = 0, small_ms = 0, output_ms = 0;  // wall times of the stages
};

class DeviceKdTree {
 public:
  DeviceKdTree();
  ~DeviceKdTree();
  DeviceKdTree(const DeviceKdTree&) = delete;
  DeviceKdTree& operator=(const DeviceKdTree&) = delete;

  // Builds the tree of the n points (x[i], y[i], z[i]), device arrays, for k neighbours, on the
  // legacy default stream; returns when it is built. query_radius > 0 is R; 0 estimates it.
  // Scratch is kept for the next build. InputError naming the first point with a non-finite
  // coordinate; DeviceError / DeviceMemoryError.
  void build(const float* x, const float* y, const float* z, uint32_t n, uint32_t k, float query_radius,
             float traversal_cost);

  DeviceKdView view() const;
  const DeviceKdCounts& counts() const { return counts_; }

  // Copies of the tree's arrays (tests, the host wrappers).
  std::vector<KdNode> download_nodes() const { return nodes_.download(counts_.nodes); }
  std::vector<float> download_x() const { return x_.download(counts_.points); }
  std::vector<float> download_y() const { return y_.download(counts_.points); }
  std::vector<float> download_z() const { return z_.download(counts_.points); }
  std::vector<uint32_t> download_ids() const { return ids_.download(counts_.points); }
  float download_query_radius() const { return radius_.read(0); }

  struct Scratch;  // the stages' working arrays (build_cuda_common.cuh)

 private:
  std::unique_ptr<Scratch> scratch_;
  DeviceArray<KdNode> nodes_;
  DeviceArray<float> x_, y_, z_;
  DeviceArray<uint32_t> ids_;
  DeviceArray<float> radius_;
  DeviceKdCounts counts_;
};

}  // namespace meniscus::sim::kdtree
