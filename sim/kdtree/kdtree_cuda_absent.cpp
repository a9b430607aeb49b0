#include "engine/core/error.h"
#include "sim/kdtree/kdtree_cuda.h"

namespace meniscus::sim::kdtree {

bool cuda_knn_available(std::string* why) {
  if (why) *why = "kdtree: CUDA backend not built (MENISCUS_CUDA=OFF or no nvcc)";
  return false;
}

KdTree build_kdtree_cuda(std::span<const glm::vec3>, const KdTreeParams&) {
  throw DeviceError("kdtree: CUDA backend not built (MENISCUS_CUDA=OFF or no nvcc)");
}

KnnResult knn_all_cuda(const KdTree&, const KnnParams&) {
  throw DeviceError("kdtree: CUDA backend not built (MENISCUS_CUDA=OFF or no nvcc)");
}

KnnResult knn_cuda(const KdTree&, std::span<const glm::vec3>, const KnnParams&) {
  throw DeviceError("kdtree: CUDA backend not built (MENISCUS_CUDA=OFF or no nvcc)");
}

}  // namespace meniscus::sim::kdtree
