// DeviceKdTree (device_kdtree.h): the CUDA build's three stages (Algorithm 1), timed, with R
// estimated on the device between the large and the small stage when the caller gave none.
#include <chrono>
#include <cmath>
#include <cub/device/device_radix_sort.cuh>
#include <string>

#include "sim/common/cuda_launch.cuh"
#include "sim/kdtree/build_cuda_common.cuh"

namespace meniscus::sim::kdtree {

struct DeviceKdTree::Scratch {
  cuda_build::BuildBuffers buffers;
  DeviceArray<double> radii, sorted_radii;
};

namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

using cuda_build::kNodeThreads;

// The input indices, and the first point with a non-finite coordinate into `first_bad`.
__global__ void identity_kernel(const float* x, const float* y, const float* z, uint32_t n, uint32_t* ids,
                                uint32_t* first_bad) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  ids[i] = i;
  if (!std::isfinite(x[i]) || !std::isfinite(y[i]) || !std::isfinite(z[i])) atomicMin(first_bad, i);
}

__global__ void small_root_radii_kernel(const BuildNode* nodes, const uint32_t* small_roots, uint32_t roots, uint32_t k,
                                        double* radii) {
  const uint32_t r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= roots) return;
  const BuildNode& node = nodes[small_roots[r]];
  radii[r] = small_root_radius(node.box, node.count, k);
}

// The median of the radii that say something (sorted, the -1s first), as the CPU's nth_element
// picks it: 0 where none does.
__global__ void median_radius_kernel(const double* sorted, uint32_t roots, float* radius) {
  uint32_t silent = 0, above = roots;  // the first that says something: in [silent, above]
  while (silent < above) {
    const uint32_t middle = silent + (above - silent) / 2;
    if (sorted[middle] < 0.0)
      silent = middle + 1;
    else
      above = middle;
  }
  const uint32_t said = roots - silent;
  *radius = said == 0 ? 0.0f : float(sorted[silent + said / 2]);
}

__global__ void set_radius_kernel(float* radius, float value) { *radius = value; }

}  // namespace

DeviceKdTree::DeviceKdTree() : scratch_(std::make_unique<Scratch>()) {}
DeviceKdTree::~DeviceKdTree() = default;

void DeviceKdTree::build(const float* x, const float* y, const float* z, uint32_t n, uint32_t k, float query_radius,
                         float traversal_cost) {
  using namespace cuda_build;
  counts_ = DeviceKdCounts{};
  radius_.reserve(1, "kd-tree (cuda): R");
  KD_BUILD_CHECK(cudaMemset(radius_.get(), 0, sizeof(float)));
  if (n == 0) return;
  BuildBuffers& b = scratch_->buffers;
  b.points[0].reserve(n);
  KD_BUILD_CHECK(cudaMemcpy(b.points[0].x.get(), x, sizeof(float) * n, cudaMemcpyDeviceToDevice));
  KD_BUILD_CHECK(cudaMemcpy(b.points[0].y.get(), y, sizeof(float) * n, cudaMemcpyDeviceToDevice));
  KD_BUILD_CHECK(cudaMemcpy(b.points[0].z.get(), z, sizeof(float) * n, cudaMemcpyDeviceToDevice));
  b.counter.reserve(5);
  KD_BUILD_CHECK(cudaMemset(b.counter.get(), 0, 4 * sizeof(uint32_t)));
  KD_BUILD_CHECK(cudaMemset(b.counter.get() + 4, 0xff, sizeof(uint32_t)));
  launch<identity_kernel>({blocks_for(n, kNodeThreads), kNodeThreads}, x, y, z, n, b.points[0].id.get(),
                          b.counter.get() + 4);
  KD_BUILD_CHECK(cudaGetLastError());
  // A NaN would send points to no side of a split: refused before the stages run.
  const uint32_t first_bad = b.counter.read(4);
  if (first_bad != UINT32_MAX)
    throw InputError("kd-tree (cuda): point " + std::to_string(first_bad) + " has a non-finite coordinate");

  auto start = Clock::now();
  LargeStageResult large;
  run_large_stage(b, n, large);
  counts_.large_ms = ms_since(start);

  start = Clock::now();
  const uint32_t roots = large.small_count;
  if (query_radius > 0.0f) {
    launch<set_radius_kernel>({1, 1}, radius_.get(), query_radius);
  } else if (roots == 0) {  // every point coincides: nothing to estimate from
    launch<set_radius_kernel>({1, 1}, radius_.get(), 0.0f);
  } else {
    scratch_->radii.reserve(roots, "kd-tree (cuda): the small roots' radii");
    scratch_->sorted_radii.reserve(roots, "kd-tree (cuda): the small roots' radii");
    launch<small_root_radii_kernel>({blocks_for(roots, kNodeThreads), kNodeThreads}, b.nodes.get(), b.small_roots.get(),
                                    roots, k, scratch_->radii.get());
    KD_BUILD_CHECK(cudaGetLastError());
    b.cub.run([&](void* storage, size_t& bytes) {
      return cub::DeviceRadixSort::SortKeys(storage, bytes, scratch_->radii.get(), scratch_->sorted_radii.get(),
                                            int(roots));
    });
    launch<median_radius_kernel>({1, 1}, scratch_->sorted_radii.get(), roots, radius_.get());
  }
  KD_BUILD_CHECK(cudaGetLastError());
  const double radius_ms = ms_since(start);
  run_small_stage_and_output(b, n, large, radius_.get(), traversal_cost, {&nodes_, &x_, &y_, &z_, &ids_, &counts_});
  counts_.small_ms += radius_ms;  // the CPU backend counts R's estimate in the small stage too

  const std::vector<uint32_t> counter = b.counter.download(4);
  counts_.points = n;
  counts_.forced_leaves = counter[0];
  counts_.small_levels = counter[1];
  counts_.leaves = counter[2];
  counts_.max_depth = counter[3];
  counts_.large_levels = large.levels;
  counts_.small_roots = roots;
}

DeviceKdView DeviceKdTree::view() const {
  return {nodes_.get(), counts_.nodes, counts_.max_depth, x_.get(),     y_.get(),
          z_.get(),     ids_.get(),    counts_.points,    radius_.get()};
}

}  // namespace meniscus::sim::kdtree
