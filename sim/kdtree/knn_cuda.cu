// Algorithm 6 on the GPU, one thread per query, as the paper runs it: every histogram round is
// a fresh range search (a thread cannot keep its candidates), counting into a per-thread
// histogram; the last range search keeps the k nearest in a sorted list. Pruning, distances and
// the growth of a too-small r0 follow knn_search.cpp step for step, so with --fmad=false the
// neighbours and distances are the CPU backend's.
#include <cuda_runtime.h>

#include <string>

#include "engine/core/error.h"
#include "sim/common/cuda_launch.cuh"
#include "sim/common/cuda_support.cuh"
#include "sim/kdtree/knn_cuda_launch.h"

namespace meniscus::sim::kdtree {
namespace {

#define KDTREE_CUDA_CHECK(call) MENISCUS_SIM_CUDA_CHECK(call)

constexpr int kBlock = 128;
constexpr uint32_t kMaxStack = 128;
constexpr uint32_t kMaxK = 64;     // kCudaMaxK
constexpr uint32_t kMaxBins = 64;  // kMaxHistogramBins

struct Tree {
  const KdNode* nodes;
  const float *x, *y, *z;
  const uint32_t* ids;
  const float* node_radius;
  const float* node_centre;
  float radius;
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

__device__ float estimate(const Tree& t, float x, float y, float z) {
  float r = 3.402823466e38f;
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
  return r < 3.402823466e38f ? r : t.radius;
}

__global__ void knn_kernel(Tree t, const uint32_t* order, uint32_t queries, uint32_t k, uint32_t bins,
                           uint32_t iterations, uint32_t* out_indices, float* out_distances) {
  const uint32_t at = blockIdx.x * blockDim.x + threadIdx.x;
  if (at >= queries) return;
  const uint32_t slot = order[at];
  const float x = t.x[slot], y = t.y[slot], z = t.z[slot];
  const KdNode& root = t.nodes[0];
  float far2 = 0.0f;
  {
    const float q[3] = {x, y, z};
    for (int a = 0; a < 3; ++a) {
      const float d = fmaxf(fabsf(q[a] - root.lo[a]), fabsf(q[a] - root.hi[a]));
      far2 += d * d;
    }
  }

  // First round, repeated with a larger radius while it holds fewer than k points.
  float r = fmaxf(estimate(t, x, y, z), 0.0f);
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
    for (uint32_t round = 0; round < iterations; ++round) {
      const float delta = r_max - r_min;
      if (!(delta > 0.0f)) break;
      for (uint32_t b = 0; b < bins; ++b) histogram[b] = 0;
      const float scale = float(bins) / delta;
      const float lo = r_min, hi = r_max;
      range_search(t, x, y, z, widened(r_max), [&](float d2, uint32_t) {
        const float d = sqrtf(d2);
        if (d > hi) return;
        const uint32_t bin = uint32_t(fmaxf(d - lo, 0.0f) * scale);
        ++histogram[bin < bins - 1 ? bin : bins - 1];
      });
      uint32_t sum = 0, j = 0;
      for (; j < bins; ++j) {
        sum += histogram[j];
        if (sum >= k) break;
      }
      if (j == bins) break;
      const float low = r_min + delta * float(j) / float(bins);
      r_max = r_min + delta * float(j + 1) / float(bins);
      r_min = low;
    }
  }

  // The last range search keeps the k nearest, ordered by (distance, input index); should
  // rounding have left fewer than k inside r_k, it runs again over the first round's radius.
  float best_d2[kMaxK];
  uint32_t best_id[kMaxK], best_slot[kMaxK];
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
        best_slot[at] = best_slot[at - 1];
        --at;
      }
      best_d2[at] = d2;
      best_id[at] = id;
      best_slot[at] = p;
    });
    if (total >= k || pass == 1) break;
  }
  const size_t row = size_t(t.ids[slot]) * k;
  for (uint32_t j = 0; j < found; ++j) {
    out_indices[row + j] = best_id[j];
    out_distances[row + j] = sqrtf(best_d2[j]);
  }
}

template <class T>
T* upload(const T* host, size_t count) {
  T* device = nullptr;
  KDTREE_CUDA_CHECK(cudaMalloc(&device, sizeof(T) * (count ? count : 1)));
  KDTREE_CUDA_CHECK(cudaMemcpy(device, host, sizeof(T) * count, cudaMemcpyHostToDevice));
  return device;
}

}  // namespace

bool cuda_device_answers(std::string* why) { return sim::cuda_device_answers(why); }

void run_knn_cuda(const CudaKnnInput& in, uint32_t* indices, float* distances, double* kernel_ms) {
  if (in.max_depth + 2 > kMaxStack)
    throw DeviceError("kdtree knn (cuda): tree depth " + std::to_string(in.max_depth) + " exceeds the kernel's stack of " +
                      std::to_string(kMaxStack));
  if (in.k > kMaxK || in.bins > kMaxBins) throw DeviceError("kdtree knn (cuda): k or bins beyond the kernel's arrays");
  // Every allocation is released on every path, the thrown one included.
  struct Buffers {
    void* p[10] = {};
    ~Buffers() {
      for (void* q : p)
        if (q) cudaFree(q);
    }
  } b;
  Tree t;
  KdNode* nodes = upload(in.nodes, in.node_count);
  b.p[0] = nodes;
  float* x = upload(in.x, in.points);
  b.p[1] = x;
  float* y = upload(in.y, in.points);
  b.p[2] = y;
  float* z = upload(in.z, in.points);
  b.p[3] = z;
  uint32_t* ids = upload(in.ids, in.points);
  b.p[4] = ids;
  float* node_radius = upload(in.node_radius, in.node_count);
  b.p[5] = node_radius;
  float* node_centre = upload(in.node_centre, size_t(in.node_count) * 3);
  b.p[6] = node_centre;
  uint32_t* order = upload(in.order, in.queries);
  b.p[7] = order;
  uint32_t* out_indices = nullptr;
  float* out_distances = nullptr;
  KDTREE_CUDA_CHECK(cudaMalloc(&out_indices, sizeof(uint32_t) * size_t(in.points) * in.k));
  b.p[8] = out_indices;
  KDTREE_CUDA_CHECK(cudaMalloc(&out_distances, sizeof(float) * size_t(in.points) * in.k));
  b.p[9] = out_distances;
  t.nodes = nodes;
  t.x = x;
  t.y = y;
  t.z = z;
  t.ids = ids;
  t.node_radius = node_radius;
  t.node_centre = node_centre;
  t.radius = in.radius;

  cudaEvent_t start, stop;
  KDTREE_CUDA_CHECK(cudaEventCreate(&start));
  KDTREE_CUDA_CHECK(cudaEventCreate(&stop));
  KDTREE_CUDA_CHECK(cudaEventRecord(start));
  launch<knn_kernel>({(in.queries + kBlock - 1) / kBlock, kBlock}, t, order, in.queries, in.k, in.bins, in.iterations,
                     out_indices, out_distances);
  KDTREE_CUDA_CHECK(cudaGetLastError());
  KDTREE_CUDA_CHECK(cudaEventRecord(stop));
  KDTREE_CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  KDTREE_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  if (kernel_ms) *kernel_ms = ms;
  KDTREE_CUDA_CHECK(cudaMemcpy(indices, out_indices, sizeof(uint32_t) * size_t(in.points) * in.k, cudaMemcpyDeviceToHost));
  KDTREE_CUDA_CHECK(cudaMemcpy(distances, out_distances, sizeof(float) * size_t(in.points) * in.k, cudaMemcpyDeviceToHost));
}

}  // namespace meniscus::sim::kdtree
