#pragma once
// The triangle kd-tree built on a CUDA device (triangle_build_cuda.h) from host arrays, and
// brought back: the CPU build's tree, node for node, with the same statistics. For tests and
// the benchmark; a frame keeps its tree on the device (DeviceTriangleKdTree).
#include <glm/vec3.hpp>
#include <span>
#include <string>

#include "sim/kdtree/triangle_kdtree.h"

namespace meniscus::sim::kdtree {

// Whether a CUDA device answers; otherwise false with the reason.
bool triangle_kdtree_cuda_available(std::string* why);

// Validates like build_triangle_kdtree; DeviceError when no CUDA device answers or a CUDA call
// fails. stats.build_ms is the device build's, without the copies either way.
TriangleKdTree build_triangle_kdtree_cuda(std::span<const glm::vec3> vertices, std::span<const uint32_t> indices,
                                          const TriangleKdParams& params = {});

}  // namespace meniscus::sim::kdtree
