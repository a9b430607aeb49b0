#include "engine/core/error.h"
#include "sim/kdtree/triangle_kdtree_cuda.h"

namespace meniscus::sim::kdtree {

bool triangle_kdtree_cuda_available(std::string* why) {
  if (why) *why = "triangle kd-tree: CUDA backend not built (MENISCUS_CUDA=OFF or no nvcc)";
  return false;
}

TriangleKdTree build_triangle_kdtree_cuda(std::span<const glm::vec3>, std::span<const uint32_t>,
                                          const TriangleKdParams&) {
  throw DeviceError("triangle kd-tree: CUDA backend not built (MENISCUS_CUDA=OFF or no nvcc)");
}

}  // namespace meniscus::sim::kdtree
