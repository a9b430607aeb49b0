#pragma once
// k nearest neighbours on the CUDA device over a device kd-tree (device_kdtree.h), as Zhou et
// al. 2008 run Algorithm 6 on a GPU: a thread per query, a radius histogram per thread, n_iter
// range searches that narrow the radius and a last one that keeps the k nearest. r0 comes from
// Algorithm 7's table, computed on the device too (prepare): a KNN search at the box centre of
// the topmost nodes smaller than alpha R and of their descendants for n_level levels. Pruning,
// distances and ties follow the CPU backend (knn_search.cpp) step for step, so with
// --fmad=false the neighbours and distances are the CPU's. C++17; CUDA builds only.
#include <cuda_runtime.h>

#include <cstdint>

#include "sim/common/cuda_support.cuh"
#include "sim/kdtree/device_kdtree.h"

namespace meniscus::sim::kdtree {

// The most neighbours a device query keeps (its list lives in registers and local memory).
inline constexpr uint32_t kDeviceMaxK = 64;

// KnnParams (knn.h) for one search: device_knn_params.h fills it.
struct DeviceKnnParams {
  uint32_t k;               // at most kDeviceMaxK and the tree's points
  uint32_t histogram_bins;  // n_hist, at most 64
  uint32_t iterations;      // n_iter
  float alpha;
  uint32_t estimate_levels;  // n_level
};

// Queries on the device: query i at (x[i], y[i], z[i]), searched in the order `order` gives
// (null: 0, 1, ...; nearby queries next to each other keep a warp's walks alike), its
// neighbours written to row rows[i] (null: row i). `own_points`: the queries are the tree's own
// points, which start from the conservative R where no node on their path has a radius (other
// queries from the farthest corner of the deepest node holding k: holding_k_radius in
// kdtree_rules.h).
struct DeviceQueries {
  const float *x = nullptr, *y = nullptr, *z = nullptr;
  const uint32_t* order = nullptr;
  const uint32_t* rows = nullptr;
  uint32_t count = 0;
  bool own_points = false;
};

class DeviceKnn {
 public:
  // Algorithm 7's table for `tree` (at least params.k points), queued on `stream` (a
  // cudaStream_t; null: the legacy stream). InputError for parameters out of range,
  // DeviceError for a tree deeper than the search's stack.
  void prepare(const DeviceKdView& tree, const DeviceKnnParams& params, void* stream);

  // The k nearest of every query, nearest first, into rows of k: indices (may be null: only
  // distances wanted) and distances. Queued on `stream` after prepare() for the same tree.
  void search(const DeviceKdView& tree, const DeviceQueries& queries, uint32_t* indices, float* distances,
              void* stream) const;

  // Nodes the last prepare() gave a radius (waits for it).
  uint32_t radius_nodes() const;

 private:
  DeviceKnnParams params_;
  cudaStream_t stream_ = nullptr;  // of the last prepare
  DeviceArray<float> node_radius_, node_centre_, table_radius_;
  DeviceArray<uint32_t> parent_, computed_;
};

}  // namespace meniscus::sim::kdtree
