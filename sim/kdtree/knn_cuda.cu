// DeviceKnn (device_knn.h): Algorithm 7's table and Algorithm 6 on the GPU, one thread per
// query, as the paper runs it: every histogram round is a fresh range search (a thread cannot
// keep its candidates), counting into a per-thread histogram; the last range search keeps the k
// nearest in a sorted list. Pruning, distances and the growth of a too-small r0 follow
// knn_search.cpp step for step, so with --fmad=false the neighbours and distances are the CPU
// backend's.
#include <string>

#include "engine/core/error.h"
#include "sim/common/cuda_launch.cuh"
#include "sim/kdtree/device_knn.h"

namespace meniscus::sim::kdtree {
namespace {

constexpr int kBlock = 128;
constexpr uint32_t kMaxStack = 128;
constexpr uint32_t kMaxBins = 64;
constexpr uint32_t kNoParent = 0xffffffffu;
constexpr float kFloatMax = 3.402823466e38f;

struct Tree {
  const KdNode* nodes;
  const float *x, *y, *z;
  const uint32_t* ids;
  const float* node_radius;
  const float* node_centre;
  const float* radius;  // the table's R
};

struct SearchShape {
  uint32_t k, bins, iterations;
};

__device__ float widened(float r) { return r * r * (1.0f + 1e-5f) + 1e-37f; }

// Range search within sqrt(r2); `visit(d2, slot)` for every point inside.
template <class Visit>
__device__ void range_search(const Tree& t, float x, float y, float z, float r2, Visit visit) {
  uint32_t stack[kMaxStack];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    uint32_t i = stack[--top];
    for (;;) {
      const KdNode& node = t.nodes[i];
      if (box_distance2(node.lo, node.hi, x, y, z) > r2) break;
      if (node.axis != kLeafAxis) {
        stack[top++] = node.index;
        i = i + 1;
        continue;
      }
      const uint32_t end = node.index + node.count;
      for (uint32_t p = node.index; p < end; ++p) {
        const float d2 = distance2(t.x[p], t.y[p], t.z[p], x, y, z);
        if (d2 <= r2) visit(d2, p);
      }
      break;
    }
  }
}

// ESTIMATERADIUS (radius_estimate.h), +inf (kFloatMax) where no node on the path has a radius.
__device__ float estimate(const Tree& t, float x, float y, float z) {
  float r = kFloatMax;
  uint32_t i = 0;
  for (;;) {
    const float ri = t.node_radius[i];
    if (ri < r) {
      const float* c = &t.node_centre[3 * size_t(i)];
      r = fminf(r, sqrtf(distance2(x, y, z, c[0], c[1], c[2])) + ri);
    }
    const KdNode& node = t.nodes[i];
    if (node.axis == kLeafAxis) break;
    const float q = node.axis == 0 ? x : (node.axis == 1 ? y : z);
    i = q < node.split ? i + 1 : node.index;
  }
  return r;
}

// The k nearest of (x, y, z) from r0, ordered by (distance, input index), into best_d2/best_id;
// returns how many (k, unless the tree holds fewer).
__device__ uint32_t nearest(const Tree& t, float x, float y, float z, float r0, const SearchShape& s, float* best_d2,
                            uint32_t* best_id) {
  const uint32_t k = s.k;
  const KdNode& root = t.nodes[0];
  const float far2 = farthest_distance2(root.lo, root.hi, x, y, z);

  // First round, repeated with a larger radius while it holds fewer than k points.
  float r = fmaxf(r0, 0.0f);
  uint32_t inside = 0;
  for (;;) {
    inside = 0;
    const float r2 = widened(r);
    range_search(t, x, y, z, r2, [&](float, uint32_t) { ++inside; });
    if (inside >= k || r2 >= far2) break;
    const float diagonal = sqrtf(distance2(root.lo[0], root.lo[1], root.lo[2], root.hi[0], root.hi[1], root.hi[2]));
    const float reach = sqrtf(box_distance2(root.lo, root.hi, x, y, z)) + 1e-3f * diagonal;
    r = fmaxf(fmaxf(2.0f * r, reach), 1e-30f);
    if (r * r > far2) r = sqrtf(far2) * (1.0f + 1e-6f);
  }

  // Histogram rounds, each a range search over [0, r_max].
  float r_min = 0.0f, r_max = r;
  if (inside > k) {
    uint32_t histogram[kMaxBins];
    for (uint32_t round = 0; round < s.iterations; ++round) {
      const float delta = r_max - r_min;
      if (!(delta > 0.0f)) break;
      for (uint32_t b = 0; b < s.bins; ++b) histogram[b] = 0;
      const float scale = float(s.bins) / delta;
      const float lo = r_min, hi = r_max;
      range_search(t, x, y, z, widened(r_max), [&](float d2, uint32_t) {
        const float d = sqrtf(d2);
        if (d > hi) return;
        const uint32_t bin = uint32_t(fmaxf(d - lo, 0.0f) * scale);
        ++histogram[bin < s.bins - 1 ? bin : s.bins - 1];
      });
      uint32_t sum = 0, j = 0;
      for (; j < s.bins; ++j) {
        sum += histogram[j];
        if (sum >= k) break;
      }
      if (j == s.bins) break;
      const float low = r_min + delta * float(j) / float(s.bins);
      r_max = r_min + delta * float(j + 1) / float(s.bins);
      r_min = low;
    }
  }

  // The last range search keeps the k nearest; should rounding have left fewer than k inside
  // r_k, it runs again over the first round's radius.
  uint32_t found = 0;
  for (int pass = 0; pass < 2; ++pass) {
    found = 0;
    uint32_t total = 0;
    range_search(t, x, y, z, widened(pass == 0 ? r_max : r), [&](float d2, uint32_t p) {
      ++total;
      const uint32_t id = t.ids[p];
      if (found == k && (d2 > best_d2[k - 1] || (d2 == best_d2[k - 1] && id > best_id[k - 1]))) return;
      uint32_t at = found < k ? found++ : k - 1;
      while (at > 0 && (best_d2[at - 1] > d2 || (best_d2[at - 1] == d2 && best_id[at - 1] > id))) {
        best_d2[at] = best_d2[at - 1];
        best_id[at] = best_id[at - 1];
        --at;
      }
      best_d2[at] = d2;
      best_id[at] = id;
    });
    if (total >= k || pass == 1) break;
  }
  return found;
}

__device__ float extent_radius(const KdNode& node) {
  return 0.5f * sqrtf(distance2(node.lo[0], node.lo[1], node.lo[2], node.hi[0], node.hi[1], node.hi[2]));
}

// The table's R (precompute_radii): twice the tree's, or the root box's diagonal without one.
__global__ void table_radius_kernel(const KdNode* nodes, const float* query_radius, float* radius) {
  *radius = *query_radius > 0.0f ? 2.0f * *query_radius : 2.0f * extent_radius(nodes[0]);
}

__global__ void parent_kernel(const KdNode* nodes, uint32_t count, uint32_t* parent) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  if (i == 0) parent[0] = kNoParent;
  if (nodes[i].axis == kLeafAxis) return;
  parent[i + 1] = i;
  parent[nodes[i].index] = i;
}

// A node gets a radius when the topmost node on its path smaller than alpha R is fewer than
// n_level levels above it (radius_nodes in radius_estimate.cpp); +inf otherwise.
__global__ void node_radius_kernel(Tree t, const uint32_t* parent, uint32_t count, float alpha, uint32_t levels,
                                   SearchShape s, float* node_radius, float* node_centre, uint32_t* computed) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const float limit = alpha * *t.radius;
  uint32_t topmost_distance = kNoParent;
  for (uint32_t at = i, distance = 0; at != kNoParent; at = parent[at], ++distance)
    if (extent_radius(t.nodes[at]) < limit) topmost_distance = distance;
  float* c = &node_centre[3 * size_t(i)];
  if (topmost_distance >= levels) {
    node_radius[i] = __int_as_float(0x7f800000);  // +inf
    c[0] = c[1] = c[2] = 0.0f;
    return;
  }
  const KdNode& node = t.nodes[i];
  for (int a = 0; a < 3; ++a) c[a] = 0.5f * (node.lo[a] + node.hi[a]);
  float best_d2[kDeviceMaxK];
  uint32_t best_id[kDeviceMaxK];
  nearest(t, c[0], c[1], c[2], *t.radius, s, best_d2, best_id);
  node_radius[i] = sqrtf(best_d2[s.k - 1]);
  atomicAdd(computed, 1u);
}

__global__ void search_kernel(Tree t, DeviceQueries q, SearchShape s, uint32_t* out_indices, float* out_distances) {
  const uint32_t at = blockIdx.x * blockDim.x + threadIdx.x;
  if (at >= q.count) return;
  const uint32_t i = q.order ? q.order[at] : at;
  const float x = q.x[i], y = q.y[i], z = q.z[i];
  float best_d2[kDeviceMaxK];
  uint32_t best_id[kDeviceMaxK];
  // r0 as the CPU's run_queries takes it (knn.cpp).
  float r0 = estimate(t, x, y, z);
  if (r0 == kFloatMax && !q.own_points) r0 = holding_k_radius(t.nodes, s.k, x, y, z, kFloatMax);
  if (r0 == kFloatMax) r0 = *t.radius;
  const uint32_t found = nearest(t, x, y, z, r0, s, best_d2, best_id);
  const size_t row = size_t(q.rows ? q.rows[i] : i) * s.k;
  for (uint32_t j = 0; j < found; ++j) {
    if (out_indices) out_indices[row + j] = best_id[j];
    out_distances[row + j] = sqrtf(best_d2[j]);
  }
}

void check_shape(const DeviceKdView& tree, const DeviceKnnParams& p) {
  if (p.k == 0 || p.k > kDeviceMaxK || p.k > tree.points)
    throw InputError("kdtree knn (cuda): k must be in [1, " + std::to_string(kDeviceMaxK) +
                     "] and at most the tree's " + std::to_string(tree.points) + " points, got " + std::to_string(p.k));
  if (p.histogram_bins < 2 || p.histogram_bins > kMaxBins)
    throw InputError("kdtree knn (cuda): histogram_bins must be in [2, " + std::to_string(kMaxBins) + "]");
  if (tree.max_depth + 2 > kMaxStack)
    throw DeviceError("kdtree knn (cuda): tree depth " + std::to_string(tree.max_depth) +
                      " exceeds the search's stack of " + std::to_string(kMaxStack));
}

}  // namespace

void DeviceKnn::prepare(const DeviceKdView& tree, const DeviceKnnParams& params, void* stream) {
  check_shape(tree, params);
  if (!(params.alpha > 0.0f) || !(params.alpha < kFloatMax))
    throw InputError("kdtree knn (cuda): alpha must be finite and > 0");
  params_ = params;
  stream_ = static_cast<cudaStream_t>(stream);
  const uint32_t count = tree.node_count;
  node_radius_.reserve(count, "kdtree knn (cuda): the radius table");
  node_centre_.reserve(3 * size_t(count), "kdtree knn (cuda): the radius table");
  parent_.reserve(count, "kdtree knn (cuda): the parents");
  table_radius_.reserve(1);
  computed_.reserve(1);
  MENISCUS_SIM_CUDA_CHECK(cudaMemsetAsync(computed_.get(), 0, sizeof(uint32_t), stream_));
  const Tree t{tree.nodes,         tree.x, tree.y, tree.z, tree.ids, node_radius_.get(), node_centre_.get(),
               table_radius_.get()};
  launch<table_radius_kernel>({1, 1, 0, stream_}, tree.nodes, tree.query_radius, table_radius_.get());
  launch<parent_kernel>({blocks_for(count, kBlock), kBlock, 0, stream_}, tree.nodes, count, parent_.get());
  launch<node_radius_kernel>({blocks_for(count, kBlock), kBlock, 0, stream_}, t, parent_.get(), count, params.alpha,
                             params.estimate_levels, SearchShape{params.k, params.histogram_bins, params.iterations},
                             node_radius_.get(), node_centre_.get(), computed_.get());
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
}

void DeviceKnn::search(const DeviceKdView& tree, const DeviceQueries& queries, uint32_t* indices, float* distances,
                       void* stream) const {
  check_shape(tree, params_);
  if (queries.count == 0) return;
  const Tree t{tree.nodes,         tree.x, tree.y, tree.z, tree.ids, node_radius_.get(), node_centre_.get(),
               table_radius_.get()};
  launch<search_kernel>({blocks_for(queries.count, kBlock), kBlock, 0, static_cast<cudaStream_t>(stream)}, t, queries,
                        SearchShape{params_.k, params_.histogram_bins, params_.iterations}, indices, distances);
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
}

uint32_t DeviceKnn::radius_nodes() const {
  uint32_t count = 0;
  MENISCUS_SIM_CUDA_CHECK(cudaMemcpyAsync(&count, computed_.get(), sizeof count, cudaMemcpyDeviceToHost, stream_));
  MENISCUS_SIM_CUDA_CHECK(cudaStreamSynchronize(stream_));
  return count;
}

}  // namespace meniscus::sim::kdtree
