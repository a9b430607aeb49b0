#pragma once
// CUDA backend: the kd-tree build (large-node stage with chunked reductions and CUB scans,
// small-node stage over bit masks, preorder output) and the KNN search (Zhou et al. 2008,
// Algorithm 6 as the paper runs it on a GPU: one thread per query, queries in Morton order, a
// radius histogram per thread, n_iter range searches that narrow the radius and a last one that
// keeps the k nearest). Algorithm 7's radius table comes from the CPU backend's code. Both give
// the CPU backend's answer to the bit (the same float formulas, no fused multiply-adds, ties to
// the lower input index).
#include <span>
#include <string>

#include "sim/kdtree/knn.h"

namespace meniscus::sim::kdtree {

// The most neighbours a CUDA query keeps (its list lives in registers and local memory).
inline constexpr uint32_t kCudaMaxK = 64;

// Whether a CUDA device answers; otherwise false with the reason (not built, no driver or an
// insufficient one, no device).
bool cuda_knn_available(std::string* why);

// build_kdtree on the GPU (build_cuda*.cu): the same tree as the CPU backend's, node for node
// (the same split rules, no fused multiply-adds, the same R). Validates like build_kdtree;
// throws DeviceError when no CUDA device answers or a CUDA call fails.
KdTree build_kdtree_cuda(std::span<const glm::vec3> points, const KdTreeParams& params = {});

// knn_all on the GPU. Throws DeviceError when no CUDA device answers or a CUDA call fails, and
// InputError for k > kCudaMaxK or bad parameters.
KnnResult knn_all_cuda(const KdTree& tree, const KnnParams& params = {});

}  // namespace meniscus::sim::kdtree
