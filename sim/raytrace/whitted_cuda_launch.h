#pragma once
// The CUDA tracer's kernel (whitted_cuda.cu) as whitted_cuda.cpp launches it, once the frame's
// tree and scene are in device memory. Plain C++17 for nvcc.
#include <cuda_runtime.h>

#include <glm/vec4.hpp>

#include "sim/kdtree/triangle_traversal.h"
#include "sim/raytrace/whitted_path.h"

namespace meniscus::sim::raytrace {

// A trace's ray counts, summed over its pixels on the device.
struct DeviceRayCounts {
  unsigned long long hits, secondary, shadow;
};

// Queues on `stream` the trace of every pixel of `rays` through `scene` against `tree` (every
// pointer in both into device memory) into `out`: rays.width x rays.height RGBA, alpha 1, row 0
// at the top. The counts are added into `counts`.
void launch_whitted(const kdtree::TriangleKdView& tree, const PathScene& scene, const PrimaryRays& rays, glm::vec4* out,
                    DeviceRayCounts* counts, cudaStream_t stream);

}  // namespace meniscus::sim::raytrace
