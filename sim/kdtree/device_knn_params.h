#pragma once
// The host's KNN parameters (knn.h) as the device search (device_knn.h) takes them, for k
// neighbours. CUDA builds only.
#include "sim/kdtree/device_knn.h"
#include "sim/kdtree/knn.h"

namespace meniscus::sim::kdtree {

inline DeviceKnnParams device_knn_params(const KnnParams& params, uint32_t k) {
  return {k, params.histogram_bins, params.iterations, params.alpha, params.estimate_levels};
}

}  // namespace meniscus::sim::kdtree
