#pragma once
// CUDA backend of the KNN search (Zhou et al. 2008, Algorithm 6 as the paper runs it on a GPU):
// one thread per query, queries in Morton order, a 32-bin radius histogram per thread, n_iter
// range searches that narrow the radius and a last one that keeps the k nearest. The tree and
// Algorithm 7's radius table come from the CPU backend; the answer is the CPU backend's to the
// bit (the same float formulas, no fused multiply-adds, ties to the lower input index).
#include <string>

#include "sim/kdtree/knn.h"

namespace meniscus::sim::kdtree {

// The most neighbours a CUDA query keeps (its list lives in registers and local memory).
inline constexpr uint32_t kCudaMaxK = 64;

// Whether a CUDA device answers; otherwise false with the reason (not built, no driver or an
// insufficient one, no device).
bool cuda_knn_available(std::string* why);

// knn_all on the GPU. Throws DeviceError when no CUDA device answers or a CUDA call fails, and
// InputError for k > kCudaMaxK or bad parameters.
KnnResult knn_all_cuda(const KdTree& tree, const KnnParams& params = {});

}  // namespace meniscus::sim::kdtree
