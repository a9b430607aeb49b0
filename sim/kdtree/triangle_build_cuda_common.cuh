#pragma once
// What the CUDA triangle build's files share (internal to sim/kdtree): the tree while it is
// built and the stages' working arrays.
#include <cuda_runtime.h>

#include <cmath>
#include <vector>

#include "sim/common/cub_storage.cuh"
#include "sim/common/cuda_launch.cuh"
#include "sim/common/cuda_support.cuh"
#include "sim/kdtree/small_triangle_root.h"
#include "sim/kdtree/triangle_build_cuda.h"
#include "sim/kdtree/triangle_build_rules.h"

namespace meniscus::sim::kdtree::triangle_cuda {

#define TRI_BUILD_CHECK(call) MENISCUS_SIM_CUDA_CHECK(call)

inline constexpr int kThreads = 128;
// Blocks of kThreads enough for n items, a thread each.
inline unsigned blocks_for(size_t n) { return sim::blocks_for(n, kThreads); }

enum NodeKind : uint32_t {
  kOpen,  // a large node whose split its level decides
  kInterior,
  kStoredLeaf,  // a large-stage leaf: its triangles are store[first, + count)
  kEmptyLeaf,
  kSmallRoot,  // its triangles and clipped boxes are store[first, + count)
};

// A node of the tree while it is built, numbered as the CPU build numbers its nodes: the root,
// then each level's children in pairs, in the order of their parents.
struct BuildNode {
  Box box;
  uint32_t kind = kOpen;
  uint32_t axis = 0;
  float split = 0.0f;
  uint32_t left = 0, right = 0;
  uint32_t depth = 0;
  uint32_t first = 0, count = 0;
};

struct MergeBoxes {
  __host__ __device__ Box operator()(const Box& a, const Box& b) const {
    Box r = a;
    r.grow(b);
    return r;
  }
};

inline __host__ __device__ Box empty_box() { return {glm::vec3(INFINITY), glm::vec3(-INFINITY)}; }

// What a level's node adds to the lists: triangles to the store, triangles and nodes to the
// next level, and whether it splits. Exclusive scans of these place each node's share.
struct LevelCounts {
  uint32_t stored = 0, next_entries = 0, next_nodes = 0, splits = 0;
};

struct AddCounts {
  __host__ __device__ LevelCounts operator()(const LevelCounts& a, const LevelCounts& b) const {
    return {a.stored + b.stored, a.next_entries + b.next_entries, a.next_nodes + b.next_nodes, a.splits + b.splits};
  }
};

// Where a node's triangles going left (a leaf's: all of them) and right are written.
enum Place : uint32_t { kNowhere, kStore, kNextLevel };
struct Destination {
  uint32_t left_to = kNowhere, right_to = kNowhere;
  uint32_t left_at = 0, right_at = 0;
};

// Triangles with their boxes (clipped to the node they are listed under).
struct EntryArrays {
  DeviceArray<uint32_t> triangle;
  DeviceArray<Box> box;
  void grow_keeping(size_t n, size_t used) {
    triangle.grow_keeping(n, used, "the triangle kd-tree's triangle lists");
    box.grow_keeping(n, used, "the triangle kd-tree's triangle lists");
  }
};

struct LargeStageResult {
  uint32_t node_count = 0;
  uint32_t levels = 0;
  // Build numbers of level l: [level_begin[l], level_begin[l + 1]).
  std::vector<uint32_t> level_begin;
};

}  // namespace meniscus::sim::kdtree::triangle_cuda

namespace meniscus::sim::kdtree {

struct DeviceTriangleKdTree::Scratch {
  DeviceArray<TriangleCorners> corners;  // every triangle's, usable or not
  DeviceArray<uint32_t> flags, ranks;    // per triangle: usable, and its place among the usable
  DeviceArray<uint32_t> bad_index;
  triangle_cuda::EntryArrays entries[2];  // the large stage's lists, a level in one, the next in the other
  triangle_cuda::EntryArrays store;       // small roots' and large leaves' triangles, as the levels leave them
  DeviceArray<triangle_cuda::BuildNode> nodes;
  DeviceArray<Box> bounds;
  CubStorage cub;
  // Per level.
  DeviceArray<uint32_t> active, next_active, begin, next_begin, owner, left_flag, right_flag, left_rank, right_rank;
  DeviceArray<Box> tight;
  DeviceArray<LargeTriangleSplit> splits;
  DeviceArray<triangle_cuda::Destination> destinations;
  DeviceArray<triangle_cuda::LevelCounts> counts, bases;
  // Output.
  DeviceArray<uint32_t> subtree_nodes, subtree_references, address, offset, small_root_count;
};

}  // namespace meniscus::sim::kdtree

namespace meniscus::sim::kdtree::triangle_cuda {

// The large-node stage over scratch.entries[0] (the usable triangles, `usable` of them) from
// the root (scratch.nodes[0], its box the triangles' bounds).
void run_large_stage(DeviceTriangleKdTree::Scratch& s, uint32_t usable, const TriangleKdParams& params,
                     LargeStageResult& out);

// The small-node stage and the preorder output into the tree's arrays (grown as needed);
// returns the node and reference counts and the number of small roots.
struct OutputArrays {
  DeviceArray<TriangleKdNode>& nodes;
  DeviceArray<uint32_t>& leaf_triangles;
  DeviceArray<LeafTriangle>& leaf_geometry;
};
void run_small_stage_and_output(DeviceTriangleKdTree::Scratch& s, const LargeStageResult& large,
                                const TriangleKdParams& params, OutputArrays out, DeviceTriangleKdCounts& counts);

}  // namespace meniscus::sim::kdtree::triangle_cuda
