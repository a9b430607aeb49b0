#pragma once
// The CUDA backend over host arrays (tests, tools): the arrays copied over, the work done by the
// device kd-tree (device_kdtree.h: large-node stage with chunked reductions and CUB scans,
// small-node stage over bit masks, preorder output) and the device KNN (device_knn.h: Algorithm
// 7's table, then Algorithm 6 as the paper runs it on a GPU, one thread per query), the answer
// brought back. Both give the CPU backend's answer to the bit (the same float formulas, no fused
// multiply-adds, ties to the lower input index).
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

// knn_all on the GPU, the tree's points searched in Morton order. Throws DeviceError when no
// CUDA device answers or a CUDA call fails, and InputError for k > kCudaMaxK or bad parameters.
KnnResult knn_all_cuda(const KdTree& tree, const KnnParams& params = {});

// knn on the GPU: arbitrary queries, searched in their own order. Errors as knn_all_cuda, and
// InputError for a non-finite query.
KnnResult knn_cuda(const KdTree& tree, std::span<const glm::vec3> queries, const KnnParams& params = {});

}  // namespace meniscus::sim::kdtree
