// The CUDA triangle kd-tree's small-node stage and preorder output (triangle_build_cuda.h).
// A thread per small root runs its exact-SAH subtree (small_triangle_root.h) twice: first only
// counting its nodes and leaf entries, then, once every subtree's place in the preorder arrays
// is known, writing them there (cheaper than keeping the subtrees in memory in between). The
// large nodes' subtree sizes go bottom-up level by level, their addresses top-down.
#include <cub/device/device_scan.cuh>

#include "sim/common/cuda_launch.cuh"
#include "sim/kdtree/triangle_build_cuda_common.cuh"
#include "sim/kdtree/triangle_build_errors.h"

namespace meniscus::sim::kdtree::triangle_cuda {
namespace {

struct StoreView {
  const uint32_t* triangle;
  const Box* box;
};

__device__ void load_small_root(const StoreView& store, const BuildNode& node, SmallTriangleRoot& root) {
  root.n = node.count;
  for (uint32_t i = 0; i < node.count; ++i) {
    const Box& b = store.box[node.first + i];
    for (uint32_t axis = 0; axis < 3; ++axis) root.lo[axis][i] = b.lo[axis], root.hi[axis][i] = b.hi[axis];
  }
  root.prepare();
}

struct CountingSink {
  uint32_t nodes = 0, references = 0;
  __device__ uint32_t interior(uint32_t, float) { return nodes++; }
  __device__ uint32_t leaf(uint64_t set) {
    references += uint32_t(popcount64(set));
    return nodes++;
  }
  __device__ void right_child(uint32_t, uint32_t) {}
};

// Leaves' subtrees are themselves; a small root's is counted; interior nodes wait for the
// bottom-up pass.
__global__ void count_subtrees_kernel(const BuildNode* nodes, uint32_t count, StoreView store, TriangleKdParams params,
                                      uint32_t* subtree_nodes, uint32_t* subtree_references, uint32_t* small_roots) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const BuildNode& node = nodes[i];
  if (node.kind == kInterior) return;
  if (node.kind != kSmallRoot) {
    subtree_nodes[i] = 1;
    subtree_references[i] = node.kind == kStoredLeaf ? node.count : 0;
    return;
  }
  atomicAdd(small_roots, 1u);
  SmallTriangleRoot root;
  load_small_root(store, node, root);
  CountingSink sink;
  root.split(node.box, node.depth, params, sink);
  subtree_nodes[i] = sink.nodes;
  subtree_references[i] = sink.references;
}

__global__ void sum_level_kernel(const BuildNode* nodes, uint32_t begin, uint32_t end, uint32_t* subtree_nodes,
                                 uint32_t* subtree_references) {
  const uint32_t i = begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= end || nodes[i].kind != kInterior) return;
  const BuildNode& node = nodes[i];
  subtree_nodes[i] = 1 + subtree_nodes[node.left] + subtree_nodes[node.right];
  subtree_references[i] = subtree_references[node.left] + subtree_references[node.right];
}

// Preorder: the left child follows its parent, the right child follows the left subtree; leaf
// entries in the same order.
__global__ void place_level_kernel(const BuildNode* nodes, uint32_t begin, uint32_t end, const uint32_t* subtree_nodes,
                                   const uint32_t* subtree_references, uint32_t* address, uint32_t* offset) {
  const uint32_t i = begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= end || nodes[i].kind != kInterior) return;
  const BuildNode& node = nodes[i];
  address[node.left] = address[i] + 1;
  address[node.right] = address[i] + 1 + subtree_nodes[node.left];
  offset[node.left] = offset[i];
  offset[node.right] = offset[i] + subtree_references[node.left];
}

struct Output {
  TriangleKdNode* nodes;
  uint32_t* leaf_triangles;
  LeafTriangle* leaf_geometry;
  const TriangleCorners* corners;
  __device__ void put_leaf_entry(uint32_t k, uint32_t triangle) const {
    const TriangleCorners c = corners[triangle];
    leaf_triangles[k] = triangle;
    leaf_geometry[k] = {c.a, c.b - c.a, c.c - c.a};
  }
};

// A small root's subtree written where the preorder wants it: node j at address + j, its
// leaves' entries from offset on.
struct WritingSink {
  const Output& out;
  const uint32_t* root_triangles;  // the small root's, in id order: bit i is root_triangles[i]
  uint32_t address, offset;
  uint32_t nodes = 0, references = 0;

  __device__ uint32_t interior(uint32_t axis, float split) {
    out.nodes[address + nodes] = TriangleKdNode::interior(axis, split, 0);  // its right child comes later
    return nodes++;
  }
  __device__ uint32_t leaf(uint64_t set) {
    out.nodes[address + nodes] = TriangleKdNode::leaf(offset + references, uint32_t(popcount64(set)));
    for (uint64_t bits = set; bits; bits &= bits - 1)
      out.put_leaf_entry(offset + references++, root_triangles[lowest_bit64(bits)]);
    return nodes++;
  }
  __device__ void right_child(uint32_t parent, uint32_t child) {
    const TriangleKdNode p = out.nodes[address + parent];
    out.nodes[address + parent] = TriangleKdNode::interior(p.axis(), p.split(), address + child);
  }
};

__global__ void write_output_kernel(const BuildNode* nodes, uint32_t count, StoreView store, TriangleKdParams params,
                                    const uint32_t* address, const uint32_t* offset, Output out) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const BuildNode& node = nodes[i];
  switch (node.kind) {
    case kInterior:
      out.nodes[address[i]] = TriangleKdNode::interior(node.axis, node.split, address[node.right]);
      return;
    case kEmptyLeaf:
      out.nodes[address[i]] = TriangleKdNode::leaf(offset[i], 0);
      return;
    case kStoredLeaf:
      out.nodes[address[i]] = TriangleKdNode::leaf(offset[i], node.count);
      for (uint32_t k = 0; k < node.count; ++k) out.put_leaf_entry(offset[i] + k, store.triangle[node.first + k]);
      return;
    default: {  // a small root
      SmallTriangleRoot root;
      load_small_root(store, node, root);
      WritingSink sink{out, store.triangle + node.first, address[i], offset[i]};
      root.split(node.box, node.depth, params, sink);
    }
  }
}

}  // namespace

void run_small_stage_and_output(DeviceTriangleKdTree::Scratch& s, const LargeStageResult& large,
                                const TriangleKdParams& params, OutputArrays out, DeviceTriangleKdCounts& counts) {
  const uint32_t n = large.node_count;
  const StoreView store{s.store.triangle.get(), s.store.box.get()};
  s.subtree_nodes.reserve(n);
  s.subtree_references.reserve(n);
  s.address.reserve(n);
  s.offset.reserve(n);
  s.small_root_count.reserve(1);
  TRI_BUILD_CHECK(cudaMemset(s.small_root_count.get(), 0, sizeof(uint32_t)));
  launch<count_subtrees_kernel>({blocks_for(n), kThreads}, s.nodes.get(), n, store, params, s.subtree_nodes.get(),
                                s.subtree_references.get(), s.small_root_count.get());
  TRI_BUILD_CHECK(cudaGetLastError());
  const std::vector<uint32_t>& level = large.level_begin;
  for (size_t l = level.size() - 1; l-- > 0;) {
    launch<sum_level_kernel>({blocks_for(level[l + 1] - level[l]), kThreads}, s.nodes.get(), level[l], level[l + 1],
                             s.subtree_nodes.get(), s.subtree_references.get());
    TRI_BUILD_CHECK(cudaGetLastError());
  }
  const uint32_t total_nodes = s.subtree_nodes.read(0), total_references = s.subtree_references.read(0);
  if (total_nodes - 1 > TriangleKdNode::kMaxIndex || total_references > TriangleKdNode::kMaxIndex)
    throw_tree_too_large();
  TRI_BUILD_CHECK(cudaMemset(s.address.get(), 0, sizeof(uint32_t)));
  TRI_BUILD_CHECK(cudaMemset(s.offset.get(), 0, sizeof(uint32_t)));
  for (size_t l = 0; l + 1 < level.size(); ++l) {
    launch<place_level_kernel>({blocks_for(level[l + 1] - level[l]), kThreads}, s.nodes.get(), level[l], level[l + 1],
                               s.subtree_nodes.get(), s.subtree_references.get(), s.address.get(), s.offset.get());
    TRI_BUILD_CHECK(cudaGetLastError());
  }
  out.nodes.reserve(total_nodes, "the triangle kd-tree's nodes");
  out.leaf_triangles.reserve(std::max(total_references, 1u), "the triangle kd-tree's leaf entries");
  out.leaf_geometry.reserve(std::max(total_references, 1u), "the triangle kd-tree's leaf entries");
  const Output o{out.nodes.get(), out.leaf_triangles.get(), out.leaf_geometry.get(), s.corners.get()};
  launch<write_output_kernel>({blocks_for(n), kThreads}, s.nodes.get(), n, store, params, s.address.get(),
                              s.offset.get(), o);
  TRI_BUILD_CHECK(cudaGetLastError());
  counts.small_roots = s.small_root_count.read(0);
  counts.nodes = total_nodes;
  counts.references = total_references;
}

}  // namespace meniscus::sim::kdtree::triangle_cuda
