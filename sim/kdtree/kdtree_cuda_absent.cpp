#include "engine/core/error.h"
#include "sim/kdtree/kdtree_cuda.h"

namespace meniscus::sim::kdtree {

bool cuda_knn_available(std::string* why) {
  if (why) *why = "kdtree: CUDA backend not built (MENISCUS_CUDA=OFF or no nvcc)";
  return false;
}

KnnResult knn_all_cuda(const KdTree&, const KnnParams&) {
  throw DeviceError("kdtree: CUDA backend not built (MENISCUS_CUDA=OFF or no nvcc)");
}

}  // namespace meniscus::sim::kdtree
