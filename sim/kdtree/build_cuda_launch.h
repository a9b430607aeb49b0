#pragma once
// The boundary between kdtree_cuda.cpp (C++20, host) and the CUDA build (build_cuda*.cu, nvcc,
// C++17): plain arrays in, the finished tree's arrays out. Internal to sim/kdtree.
#include <cstdint>
#include <functional>
#include <vector>

#include "sim/kdtree/kdtree_rules.h"

namespace meniscus::sim::kdtree {

struct CudaBuildResult {
  std::vector<KdNode> nodes;  // preorder
  std::vector<float> x, y, z;
  std::vector<uint32_t> ids;
  float query_radius = 0.0f;
  uint32_t large_levels = 0, small_levels = 0, small_roots = 0, leaves = 0, forced_leaves = 0, max_depth = 0;
  double large_ms = 0, small_ms = 0, output_ms = 0;
};

// R of the VVH cost from the small roots' tight boxes and point counts (in small-root order),
// asked for between the large and the small stage when the caller gave no R: the CPU backend's
// estimate, so that both backends split with the same R.
using RadiusFromSmallRoots = std::function<float(const Aabb* boxes, const uint32_t* counts, size_t roots)>;

// Builds the tree of the n points (x, y, z) on the GPU: the CPU backend's tree, node for node.
// Throws DeviceError.
void run_build_cuda(const float* x, const float* y, const float* z, uint32_t n, float radius, float traversal_cost,
                    const RadiusFromSmallRoots& radius_rule, CudaBuildResult& out);

}  // namespace meniscus::sim::kdtree
