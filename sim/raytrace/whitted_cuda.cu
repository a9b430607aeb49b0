// The Whitted tracer's kernel: a thread per pixel running whitted_path.h, its rays walking the
// kd-tree with triangle_traversal.h, as the CPU backend does row by row.
#include <cuda_runtime.h>

#include "sim/common/cuda_launch.cuh"
#include "sim/common/cuda_support.cuh"
#include "sim/raytrace/whitted_cuda_launch.h"

namespace meniscus::sim::raytrace {
namespace {

// 8 x 8 pixels a block: neighbouring rays walk the same nodes, so a warp's memory reads overlap.
constexpr uint32_t kTile = 8;

using kdtree::TriangleKdSurface;

__global__ void trace_pixels(TriangleKdSurface surface, PathScene scene, PrimaryRays rays, glm::vec4* out,
                             DeviceRayCounts* counts) {
  const uint32_t x = blockIdx.x * kTile + threadIdx.x, y = blockIdx.y * kTile + threadIdx.y;
  WhittedPath<TriangleKdSurface> path(surface, scene);
  if (x < rays.width && y < rays.height) out[size_t(y) * rays.width + x] = glm::vec4(path.pixel(rays, x, y), 1.0f);
  // Every lane of the warp reaches the sums (pixels off the image count nothing); one atomic a
  // warp and count.
  const unsigned hits = __reduce_add_sync(0xffffffffu, unsigned(path.counts.hits));
  const unsigned secondary = __reduce_add_sync(0xffffffffu, unsigned(path.counts.secondary));
  const unsigned shadow = __reduce_add_sync(0xffffffffu, unsigned(path.counts.shadow));
  if ((threadIdx.y * kTile + threadIdx.x) % 32 == 0) {
    atomicAdd(&counts->hits, (unsigned long long)hits);
    atomicAdd(&counts->secondary, (unsigned long long)secondary);
    atomicAdd(&counts->shadow, (unsigned long long)shadow);
  }
}

}  // namespace

void launch_whitted(const kdtree::TriangleKdView& tree, const PathScene& scene, const PrimaryRays& rays, glm::vec4* out,
                    DeviceRayCounts* counts, cudaStream_t stream) {
  const dim3 grid((rays.width + kTile - 1) / kTile, (rays.height + kTile - 1) / kTile);
  launch<trace_pixels>({grid, dim3(kTile, kTile), 0, stream}, TriangleKdSurface{tree}, scene, rays, out, counts);
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
}

}  // namespace meniscus::sim::raytrace
