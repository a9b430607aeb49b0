// The CUDA build's three stages (Algorithm 1), timed, with R asked from the host between the
// large and the small stage (see RadiusFromSmallRoots).
#include <chrono>

#include "sim/kdtree/build_cuda_common.cuh"
#include "sim/common/cuda_launch.cuh"

namespace meniscus::sim::kdtree {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

__global__ void small_root_boxes_kernel(const BuildNode* nodes, const uint32_t* small_roots, uint32_t roots, Aabb* boxes,
                                        uint32_t* counts) {
  const uint32_t r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= roots) return;
  boxes[r] = nodes[small_roots[r]].box;
  counts[r] = nodes[small_roots[r]].count;
}

}  // namespace

void run_build_cuda(const float* x, const float* y, const float* z, uint32_t n, float radius, float traversal_cost,
                    const RadiusFromSmallRoots& radius_rule, CudaBuildResult& out) {
  using namespace cuda_build;
  out = CudaBuildResult{};
  if (n == 0) return;
  BuildBuffers b;
  b.points[0].reserve(n);
  KD_BUILD_CHECK(cudaMemcpy(b.points[0].x.get(), x, sizeof(float) * n, cudaMemcpyHostToDevice));
  KD_BUILD_CHECK(cudaMemcpy(b.points[0].y.get(), y, sizeof(float) * n, cudaMemcpyHostToDevice));
  KD_BUILD_CHECK(cudaMemcpy(b.points[0].z.get(), z, sizeof(float) * n, cudaMemcpyHostToDevice));
  std::vector<uint32_t> ids(n);
  for (uint32_t i = 0; i < n; ++i) ids[i] = i;
  KD_BUILD_CHECK(cudaMemcpy(b.points[0].id.get(), ids.data(), sizeof(uint32_t) * n, cudaMemcpyHostToDevice));
  b.counter.reserve(4);
  KD_BUILD_CHECK(cudaMemset(b.counter.get(), 0, 4 * sizeof(uint32_t)));
  KD_BUILD_CHECK(cudaDeviceSynchronize());

  auto start = Clock::now();
  LargeStageResult large;
  run_large_stage(b, n, large);
  out.large_ms = ms_since(start);

  start = Clock::now();
  if (!(radius > 0.0f)) {
    DeviceArray<Aabb> boxes;
    DeviceArray<uint32_t> counts;
    boxes.reserve(large.small_count);
    counts.reserve(large.small_count);
    if (large.small_count > 0) {  // none when every point coincides
      launch<small_root_boxes_kernel>({blocks_for(large.small_count, kNodeThreads), kNodeThreads},
                                      b.nodes.get(), b.small_roots.get(), large.small_count, boxes.get(), counts.get());
      KD_BUILD_CHECK(cudaGetLastError());
    }
    const std::vector<Aabb> host_boxes = boxes.download(large.small_count);
    const std::vector<uint32_t> host_counts = counts.download(large.small_count);
    radius = radius_rule(host_boxes.data(), host_counts.data(), host_boxes.size());
  }
  out.query_radius = radius;
  const double radius_ms = ms_since(start);
  run_small_stage_and_output(b, n, large, radius, traversal_cost, out);
  out.small_ms += radius_ms;  // the CPU backend counts R's estimate in the small stage too

  const std::vector<uint32_t> counter = b.counter.download(4);
  out.forced_leaves = counter[0];
  out.small_levels = counter[1];
  out.leaves = counter[2];
  out.max_depth = counter[3];
  out.large_levels = large.levels;
  out.small_roots = large.small_count;
}

}  // namespace meniscus::sim::kdtree
