// Small-node stage and preorder output on the GPU (Zhou et al. 2008, Algorithms 4 and 5).
//
// Small stage: one thread per small root runs split_small_subtree (small_node_rules.h, shared
// with the CPU backend): PREPROCESSSMALLNODES' per-candidate masks, then the exact VVH split of
// every node, level by level, point sets as 32-bit masks. A first pass only counts each
// subtree's nodes; a scan numbers the subtrees root by root after the large nodes, as the CPU
// does; a second pass splits again (cheaper than keeping 63 nodes per root in memory) and writes
// the nodes, with their subtree sizes.
//
// Output: subtree sizes of the large nodes bottom-up by BFS level, preorder addresses and point
// offsets top-down by level (then inside each small subtree), and one thread per node writes
// its preorder node and gathers a leaf's points, as preorder.cpp does.
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <chrono>

#include "sim/kdtree/build_cuda_common.cuh"
#include "sim/common/cuda_launch.cuh"

namespace meniscus::sim::kdtree::cuda_build {
namespace {

struct Points {
  const float *x, *y, *z;
  const uint32_t* id;
};

struct Buffers {
  Points p[2];
};

__device__ void load_root(const Buffers& points, const BuildNode& node, SmallRoot& root) {
  const Points& p = points.p[node.buffer];
  root.n = node.count;
  for (uint32_t i = 0; i < node.count; ++i) {
    root.c[0][i] = p.x[node.begin + i];
    root.c[1][i] = p.y[node.begin + i];
    root.c[2][i] = p.z[node.begin + i];
  }
  preprocess_small_root(root);
}

// Pass 1: nodes below each small root (its subtree's size minus the root, which keeps its number).
__global__ void count_small_kernel(Buffers points, const BuildNode* nodes, const uint32_t* small_roots, uint32_t roots,
                                   const float* radius, float traversal_cost, uint32_t* extra, uint32_t* levels) {
  const uint32_t r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r > roots) return;
  if (r == roots) {  // closes the array the scan runs over
    extra[r] = 0;
    return;
  }
  const BuildNode& node = nodes[small_roots[r]];
  SmallRoot root;
  load_root(points, node, root);
  SmallNode local[kSmallSubtreeMax];
  const uint32_t count = split_small_subtree(root, node.cell, node.box, *radius, traversal_cost, local);
  extra[r] = count - 1;
  atomicMax(levels, local[count - 1].depth + 1);  // BFS: the last node is the deepest
}

// Pass 2: the same split, written out. Local node j > 0 of root r is node first + base[r] + j - 1.
__global__ void write_small_kernel(Buffers points, BuildNode* nodes, const uint32_t* small_roots, uint32_t roots,
                                   const float* radius, float traversal_cost, const uint32_t* base, uint32_t first,
                                   uint32_t* subtree) {
  const uint32_t r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= roots) return;
  const uint32_t root_id = small_roots[r];
  const BuildNode root_node = nodes[root_id];
  SmallRoot root;
  load_root(points, root_node, root);
  SmallNode local[kSmallSubtreeMax];
  const uint32_t count = split_small_subtree(root, root_node.cell, root_node.box, *radius, traversal_cost, local);
  const uint32_t offset = first + base[r];
  auto global = [&](uint32_t j) { return j == 0 ? root_id : offset + j - 1; };
  uint32_t size[kSmallSubtreeMax];
  for (uint32_t j = count; j-- > 0;) {
    const SmallNode& l = local[j];
    size[j] = l.axis == kLeafAxis ? 1 : 1 + size[l.left] + size[l.right];
    nodes[global(j)] = small_build_node(root_node, l, global(l.left), global(l.right));
    subtree[global(j)] = size[j];
  }
}

// Bottom-up over one BFS level of the large stage: small roots already have their sizes.
__global__ void large_subtree_kernel(const BuildNode* nodes, uint32_t begin, uint32_t end, uint32_t* subtree) {
  const uint32_t i = begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= end) return;
  const BuildNode& node = nodes[i];
  if (node.small) return;
  subtree[i] = node.axis == kLeafAxis ? 1 : 1 + subtree[node.left] + subtree[node.right];
}

__device__ void place_children(const BuildNode* nodes, uint32_t i, const uint32_t* subtree, uint32_t* address,
                               uint32_t* offset) {
  const BuildNode& node = nodes[i];
  if (node.axis == kLeafAxis) return;
  address[node.left] = address[i] + 1;
  address[node.right] = address[i] + 1 + subtree[node.left];
  offset[node.left] = offset[i];
  offset[node.right] = offset[i] + nodes[node.left].count;
}

// Top-down over one BFS level of the large stage (small subtrees are placed by their roots).
__global__ void place_large_kernel(const BuildNode* nodes, uint32_t begin, uint32_t end, const uint32_t* subtree,
                                   uint32_t* address, uint32_t* offset) {
  const uint32_t i = begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= end || nodes[i].small) return;
  place_children(nodes, i, subtree, address, offset);
}

// Top-down inside each small subtree: its nodes are the root and then a contiguous, BFS-ordered
// run of numbers, parents before children.
__global__ void place_small_kernel(const BuildNode* nodes, const uint32_t* small_roots, uint32_t roots,
                                   const uint32_t* base, uint32_t first, const uint32_t* subtree, uint32_t* address,
                                   uint32_t* offset) {
  const uint32_t r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= roots) return;
  place_children(nodes, small_roots[r], subtree, address, offset);
  for (uint32_t i = first + base[r]; i < first + base[r + 1]; ++i) place_children(nodes, i, subtree, address, offset);
}

struct Output {
  KdNode* nodes;
  float *x, *y, *z;
  uint32_t* ids;
};

__global__ void write_output_kernel(Buffers points, const BuildNode* nodes, uint32_t count, const uint32_t* address,
                                    const uint32_t* offset, Output out, uint32_t* leaves, uint32_t* max_depth) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const BuildNode& b = nodes[i];
  atomicMax(max_depth, b.depth);
  out.nodes[address[i]] = output_node(b, b.axis == kLeafAxis ? offset[i] : address[b.right]);
  if (b.axis != kLeafAxis) return;
  atomicAdd(leaves, 1u);
  const Points& src = points.p[b.buffer];
  uint32_t to = offset[i];
  auto put = [&](uint32_t from) {
    out.x[to] = src.x[from];
    out.y[to] = src.y[from];
    out.z[to] = src.z[from];
    out.ids[to] = src.id[from];
    ++to;
  };
  if (b.small) {
    for (uint32_t m = b.mask; m; m &= m - 1) put(b.begin + uint32_t(lowest_bit32(m)));
  } else {
    for (uint32_t p = b.begin; p < b.begin + b.count; ++p) put(p);
  }
}

}  // namespace

void run_small_stage_and_output(BuildBuffers& b, uint32_t n, const LargeStageResult& large, const float* radius,
                                float traversal_cost, const TreeOutput& out) {
  Buffers points;
  for (int s = 0; s < 2; ++s)
    points.p[s] = Points{b.points[s].x.get(), b.points[s].y.get(), b.points[s].z.get(), b.points[s].id.get()};
  const uint32_t roots = large.small_count;
  auto start = std::chrono::steady_clock::now();
  auto ms_since = [](std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
  };

  // Small stage.
  DeviceArray<uint32_t> extra, base;
  extra.reserve(roots + 1);
  base.reserve(roots + 1);
  launch<count_small_kernel>({blocks_for(roots + 1, kNodeThreads), kNodeThreads},
      points, b.nodes.get(), b.small_roots.get(), roots, radius, traversal_cost, extra.get(), b.counter.get() + 1);
  KD_BUILD_CHECK(cudaGetLastError());
  b.cub.run([&](void* storage, size_t& bytes) {
    return cub::DeviceScan::ExclusiveSum(storage, bytes, extra.get(), base.get(), int(roots + 1));
  });
  const uint32_t total = large.node_count + base.read(roots);
  b.nodes.grow_keeping(total, large.node_count);
  DeviceArray<uint32_t> subtree, address, offset;
  subtree.reserve(total);
  address.reserve(total);
  offset.reserve(total);
  // No small roots at all when every point coincides: the root is a forced leaf.
  if (roots > 0) {
    launch<write_small_kernel>({blocks_for(roots, kNodeThreads), kNodeThreads}, points, b.nodes.get(), b.small_roots.get(),
                               roots, radius, traversal_cost, base.get(),
                               large.node_count, subtree.get());
    KD_BUILD_CHECK(cudaGetLastError());
  }
  KD_BUILD_CHECK(cudaDeviceSynchronize());
  out.counts->small_ms = ms_since(start);
  start = std::chrono::steady_clock::now();

  // Output stage: sizes bottom-up, addresses top-down, then the nodes and points.
  const std::vector<uint32_t>& level = large.level_begin;
  for (size_t l = level.size() - 1; l-- > 0;) {
    const uint32_t count = level[l + 1] - level[l];
    launch<large_subtree_kernel>({blocks_for(count, kNodeThreads), kNodeThreads}, b.nodes.get(), level[l], level[l + 1],
                                 subtree.get());
    KD_BUILD_CHECK(cudaGetLastError());
  }
  KD_BUILD_CHECK(cudaMemset(address.get(), 0, sizeof(uint32_t)));
  KD_BUILD_CHECK(cudaMemset(offset.get(), 0, sizeof(uint32_t)));
  for (size_t l = 0; l + 1 < level.size(); ++l) {
    const uint32_t count = level[l + 1] - level[l];
    launch<place_large_kernel>({blocks_for(count, kNodeThreads), kNodeThreads}, b.nodes.get(), level[l], level[l + 1],
                               subtree.get(), address.get(), offset.get());
    KD_BUILD_CHECK(cudaGetLastError());
  }
  if (roots > 0) {
    launch<place_small_kernel>({blocks_for(roots, kNodeThreads), kNodeThreads}, b.nodes.get(), b.small_roots.get(), roots,
                               base.get(), large.node_count, subtree.get(),
                               address.get(), offset.get());
    KD_BUILD_CHECK(cudaGetLastError());
  }

  out.nodes->reserve(total, "kd-tree (cuda): the nodes");
  out.x->reserve(n, "kd-tree (cuda): the points");
  out.y->reserve(n, "kd-tree (cuda): the points");
  out.z->reserve(n, "kd-tree (cuda): the points");
  out.ids->reserve(n, "kd-tree (cuda): the points");
  const Output o{out.nodes->get(), out.x->get(), out.y->get(), out.z->get(), out.ids->get()};
  launch<write_output_kernel>({blocks_for(total, kNodeThreads), kNodeThreads}, points, b.nodes.get(), total, address.get(),
                              offset.get(), o, b.counter.get() + 2,
                              b.counter.get() + 3);
  KD_BUILD_CHECK(cudaGetLastError());
  KD_BUILD_CHECK(cudaDeviceSynchronize());
  out.counts->nodes = total;
  out.counts->output_ms = ms_since(start);
}

}  // namespace meniscus::sim::kdtree::cuda_build
