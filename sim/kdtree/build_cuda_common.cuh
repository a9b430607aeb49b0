#pragma once
// What the CUDA build's files share (internal to sim/kdtree): error checks, growable device
// arrays, CUB temporary storage (sim/common), and the buffers the stages hand each other.
#include <cuda_runtime.h>

#include <string>
#include <utility>
#include <vector>

#include "engine/core/error.h"
#include "sim/common/cub_storage.cuh"
#include "sim/common/cuda_launch.cuh"
#include "sim/common/cuda_support.cuh"
#include "sim/kdtree/build_node.h"
#include "sim/kdtree/device_kdtree.h"

namespace meniscus::sim::kdtree::cuda_build {

#define KD_BUILD_CHECK(call) MENISCUS_SIM_CUDA_CHECK(call)

// Threads per block for per-point work: one chunk (kChunkSize points) per block.
inline constexpr int kChunkThreads = int(kChunkSize);
// Threads per block for per-node and per-small-root work.
inline constexpr int kNodeThreads = 128;

using sim::blocks_for;

using sim::DeviceArray;

using sim::CubStorage;

struct DevicePoints {
  DeviceArray<float> x, y, z;
  DeviceArray<uint32_t> id;
  void reserve(size_t n) {
    x.reserve(n);
    y.reserve(n);
    z.reserve(n);
    id.reserve(n);
  }
};

struct BuildBuffers {
  DevicePoints points[2];            // the large stage's double buffer
  DeviceArray<BuildNode> nodes;      // build numbers; grown as the stages create nodes
  DeviceArray<uint32_t> small_roots; // build numbers, in creation order
  DeviceArray<uint32_t> counter;     // [0] forced leaves, [1] small levels, [2] leaves, [3] max depth,
                                     // [4] the first non-finite point
  CubStorage cub;
};

struct LargeStageResult {
  uint32_t node_count = 0;    // nodes the large stage created (build numbers below it)
  uint32_t small_count = 0;   // small roots
  uint32_t levels = 0;        // BFS rounds
  // Build numbers of BFS level l of the large stage: [level_begin[l], level_begin[l + 1]).
  std::vector<uint32_t> level_begin;
};

// Algorithm 2 for points: root box, then rounds of splits and list splits until only small
// roots and forced leaves are left. points[0] holds the input.
void run_large_stage(BuildBuffers& b, uint32_t n, LargeStageResult& out);

// Where the output stage writes the finished tree (DeviceKdTree's arrays), and what it counts.
struct TreeOutput {
  DeviceArray<KdNode>* nodes;
  DeviceArray<float>*x, *y, *z;
  DeviceArray<uint32_t>* ids;
  DeviceKdCounts* counts;
};

// Algorithm 4 (VVH over bit masks) for every small root with R read from `radius` (one float on
// the device), then Algorithm 5 (preorder) into `out`.
void run_small_stage_and_output(BuildBuffers& b, uint32_t n, const LargeStageResult& large, const float* radius,
                                float traversal_cost, const TreeOutput& out);

}  // namespace meniscus::sim::kdtree::cuda_build
