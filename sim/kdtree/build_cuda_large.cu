// Large-node stage on the GPU (Zhou et al. 2008, Algorithm 2 for points), the CPU backend's
// large_nodes.cpp step for step: every round splits all active nodes by choose_large_split
// (kdtree_rules.h), cuts their points into fixed chunks of kChunkSize, counts and reduces the
// children's boxes per chunk (one block per chunk), scans the counts (CUB), moves the points
// with a stable list split, and reduces the chunk boxes per node (CUB segmented reduction).
// Children are numbered in active-list order, so the nodes are the CPU's, number for number.
#include <algorithm>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_reduce.cuh>

#include "sim/common/cuda_launch.cuh"
#include "sim/common/segment_owner.cuh"
#include "sim/kdtree/build_cuda_common.cuh"

namespace meniscus::sim::kdtree::cuda_build {
namespace {

struct BoxPair {
  Aabb left, right;
};

struct MergeBoxes {
  __host__ __device__ Aabb operator()(const Aabb& a, const Aabb& b) const {
    Aabb r = a;
    merge(r, b);
    return r;
  }
};

struct MergePairs {
  __host__ __device__ BoxPair operator()(const BoxPair& a, const BoxPair& b) const {
    BoxPair r = a;
    merge(r.left, b.left);
    merge(r.right, b.right);
    return r;
  }
};

struct Points {
  const float *x, *y, *z;
  const uint32_t* id;
};

struct MutablePoints {
  float *x, *y, *z;
  uint32_t* id;
};

__device__ const float* axis_array(const Points& p, uint32_t axis) { return axis == 0 ? p.x : (axis == 1 ? p.y : p.z); }

__global__ void chunk_boxes_kernel(Points p, uint32_t n, Aabb* out) {
  using Reduce = cub::BlockReduce<Aabb, kChunkThreads>;
  __shared__ typename Reduce::TempStorage temp;
  const uint32_t i = blockIdx.x * kChunkSize + threadIdx.x;
  Aabb box = empty_box();
  if (i < n) grow(box, p.x[i], p.y[i], p.z[i]);
  const Aabb total = Reduce(temp).Reduce(box, MergeBoxes{});
  if (threadIdx.x == 0) out[blockIdx.x] = total;
}

__global__ void init_root_kernel(BuildNode* nodes, const Aabb* box, uint32_t n, uint32_t* small_roots) {
  BuildNode root;
  root.box = *box;
  root.cell = *box;
  root.count = n;
  root.small = n <= kSmallNodeMax ? 1 : 0;
  nodes[0] = root;
  if (root.small) small_roots[0] = 0;
}

// One thread per active node, plus one that closes the arrays the scans run over.
__global__ void choose_splits_kernel(const BuildNode* nodes, const uint32_t* active, uint32_t active_count,
                                     LargeSplit* splits, uint32_t* chunk_count, uint32_t* split_flag) {
  const uint32_t a = blockIdx.x * blockDim.x + threadIdx.x;
  if (a > active_count) return;
  if (a == active_count) {
    chunk_count[a] = 0;
    split_flag[a] = 0;
    return;
  }
  const BuildNode& node = nodes[active[a]];
  const LargeSplit s = choose_large_split(node.cell, node.box);
  splits[a] = s;
  chunk_count[a] = s.leaf ? 0 : (node.count + kChunkSize - 1) / kChunkSize;
  split_flag[a] = s.leaf ? 0 : 1;
}

// The active node that owns chunk c: the last a with first_chunk[a] <= c.
__global__ void chunk_owner_kernel(const uint32_t* first_chunk, uint32_t active_count, uint32_t chunks, uint32_t* owner) {
  const uint32_t c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < chunks) owner[c] = owning_segment(first_chunk, active_count, c);
}

struct ChunkView {
  uint32_t node_begin, node_count;  // the owning node's points
  uint32_t begin, end;              // the chunk's points
};

__device__ ChunkView chunk_view(const BuildNode* nodes, const uint32_t* active, const uint32_t* first_chunk,
                                const uint32_t* owner, uint32_t c) {
  const uint32_t a = owner[c];
  const BuildNode& node = nodes[active[a]];
  ChunkView v;
  v.node_begin = node.begin;
  v.node_count = node.count;
  v.begin = node.begin + (c - first_chunk[a]) * kChunkSize;
  v.end = min(v.begin + kChunkSize, node.begin + node.count);
  return v;
}

// Per chunk: points going left, and the tight boxes of the points going either way.
__global__ void count_chunks_kernel(Points src, const BuildNode* nodes, const uint32_t* active, const LargeSplit* splits,
                                    const uint32_t* first_chunk, const uint32_t* owner, uint32_t* chunk_left,
                                    BoxPair* chunk_boxes) {
  using Count = cub::BlockReduce<uint32_t, kChunkThreads>;
  using Boxes = cub::BlockReduce<BoxPair, kChunkThreads>;
  __shared__ union {
    typename Count::TempStorage count;
    typename Boxes::TempStorage boxes;
  } temp;
  const uint32_t c = blockIdx.x;
  const ChunkView v = chunk_view(nodes, active, first_chunk, owner, c);
  const LargeSplit& s = splits[owner[c]];
  const uint32_t i = v.begin + threadIdx.x;
  BoxPair mine{empty_box(), empty_box()};
  uint32_t left = 0;
  if (i < v.end) {
    left = axis_array(src, s.axis)[i] < s.position ? 1 : 0;
    grow(left ? mine.left : mine.right, src.x[i], src.y[i], src.z[i]);
  }
  const uint32_t total = Count(temp.count).Sum(left);
  __syncthreads();
  const BoxPair boxes = Boxes(temp.boxes).Reduce(mine, MergePairs{});
  if (threadIdx.x == 0) {
    chunk_left[c] = total;
    chunk_boxes[c] = boxes;
  }
}

// The stable list split: a chunk's left points keep their order after the node's earlier left
// points, its right points after all the node's left points and its earlier right points.
__global__ void move_points_kernel(Points src, MutablePoints dst, const BuildNode* nodes, const uint32_t* active,
                                   const LargeSplit* splits, const uint32_t* first_chunk, const uint32_t* owner,
                                   const uint32_t* left_scan) {
  using Scan = cub::BlockScan<uint32_t, kChunkThreads>;
  __shared__ typename Scan::TempStorage temp;
  const uint32_t c = blockIdx.x;
  const uint32_t a = owner[c];
  const ChunkView v = chunk_view(nodes, active, first_chunk, owner, c);
  const LargeSplit& s = splits[a];
  const uint32_t i = v.begin + threadIdx.x;
  const bool valid = i < v.end;
  const uint32_t left = valid && axis_array(src, s.axis)[i] < s.position ? 1 : 0;
  uint32_t rank_left = 0;
  Scan(temp).ExclusiveSum(left, rank_left);
  if (!valid) return;
  const uint32_t left_before = left_scan[c] - left_scan[first_chunk[a]];
  const uint32_t total_left = left_scan[first_chunk[a + 1]] - left_scan[first_chunk[a]];
  const uint32_t right_before = (v.begin - v.node_begin) - left_before;
  const uint32_t to = left ? v.node_begin + left_before + rank_left
                           : v.node_begin + total_left + right_before + (threadIdx.x - rank_left);
  dst.x[to] = src.x[i];
  dst.y[to] = src.y[i];
  dst.z[to] = src.z[i];
  dst.id[to] = src.id[i];
}

// Writes each active node's split and its children (numbered node_count + 2 rank + side), and
// flags which children are small roots.
__global__ void create_children_kernel(BuildNode* nodes, const uint32_t* active, uint32_t active_count,
                                       const LargeSplit* splits, const uint32_t* split_rank, const uint32_t* first_chunk,
                                       const uint32_t* left_scan, const BoxPair* node_boxes, uint32_t node_count,
                                       uint8_t buffer, uint32_t* small_flag, uint32_t* forced_leaves) {
  const uint32_t a = blockIdx.x * blockDim.x + threadIdx.x;
  if (a >= active_count) return;
  const uint32_t id = active[a];
  BuildNode node = nodes[id];
  const LargeSplit s = splits[a];
  node.cell = s.cell;
  node.buffer = buffer;
  if (s.leaf) {
    node.axis = kLeafAxis;
    nodes[id] = node;
    atomicAdd(forced_leaves, 1u);
    return;
  }
  const uint32_t node_left = left_scan[first_chunk[a + 1]] - left_scan[first_chunk[a]];
  const uint32_t first_child = node_count + 2 * split_rank[a];
  for (int side = 0; side < 2; ++side) {
    BuildNode child;
    child.box = side ? node_boxes[a].right : node_boxes[a].left;
    child.cell = s.cell;
    (side ? child.cell.lo : child.cell.hi)[s.axis] = s.position;
    child.begin = side ? node.begin + node_left : node.begin;
    child.count = side ? node.count - node_left : node_left;
    child.depth = node.depth + 1;
    child.buffer = uint8_t(buffer ^ 1);
    child.small = child.count <= kSmallNodeMax ? 1 : 0;
    nodes[first_child + side] = child;
    small_flag[2 * split_rank[a] + side] = child.small;
  }
  node.axis = s.axis;
  node.split = s.position;
  node.left = first_child;
  node.right = first_child + 1;
  nodes[id] = node;
}

// Children in creation order go to the small-root list or the next round's active list.
__global__ void sort_children_kernel(const uint32_t* small_flag, const uint32_t* small_rank, uint32_t children,
                                     uint32_t node_count, uint32_t* small_roots, uint32_t small_count, uint32_t* next) {
  const uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= children) return;
  if (small_flag[j]) small_roots[small_count + small_rank[j]] = node_count + j;
  else next[j - small_rank[j]] = node_count + j;
}

}  // namespace

void run_large_stage(BuildBuffers& b, uint32_t n, LargeStageResult& out) {
  const uint32_t root_chunks = (n + kChunkSize - 1) / kChunkSize;
  // Active nodes of one round are disjoint and hold more than T points each.
  const size_t max_active = n / (kSmallNodeMax + 1) + 2;
  size_t node_capacity = 2 * max_active + 64;
  b.nodes.reserve(node_capacity);
  b.small_roots.reserve(node_capacity);
  b.points[1].reserve(n);

  {
    DeviceArray<Aabb> boxes, root_box;
    boxes.reserve(root_chunks);
    root_box.reserve(1);
    const Points p{b.points[0].x.get(), b.points[0].y.get(), b.points[0].z.get(), b.points[0].id.get()};
    launch<chunk_boxes_kernel>({root_chunks, kChunkThreads}, p, n, boxes.get());
    KD_BUILD_CHECK(cudaGetLastError());
    b.cub.run([&](void* storage, size_t& bytes) {
      return cub::DeviceReduce::Reduce(storage, bytes, boxes.get(), root_box.get(), int(root_chunks), MergeBoxes{}, empty_box());
    });
    launch<init_root_kernel>({1, 1}, b.nodes.get(), root_box.get(), n, b.small_roots.get());
    KD_BUILD_CHECK(cudaGetLastError());
  }
  out = LargeStageResult{};
  out.node_count = 1;
  out.level_begin = {0, 1};
  if (n <= kSmallNodeMax) {
    out.small_count = 1;
    return;
  }

  DeviceArray<uint32_t> active, next, chunk_count, first_chunk, split_flag, split_rank, owner, chunk_left, left_scan,
      small_flag, small_rank;
  DeviceArray<LargeSplit> splits;
  DeviceArray<BoxPair> chunk_boxes, node_boxes;
  active.reserve(max_active);
  next.reserve(2 * max_active);
  KD_BUILD_CHECK(cudaMemset(active.get(), 0, sizeof(uint32_t)));  // the root
  uint32_t active_count = 1;
  uint8_t buffer = 0;
  while (active_count > 0) {
    ++out.levels;
    const Points src{b.points[buffer].x.get(), b.points[buffer].y.get(), b.points[buffer].z.get(), b.points[buffer].id.get()};
    const DevicePoints& d = b.points[buffer ^ 1];
    const MutablePoints dst{d.x.get(), d.y.get(), d.z.get(), d.id.get()};

    splits.reserve(active_count);
    chunk_count.reserve(active_count + 1);
    first_chunk.reserve(active_count + 1);
    split_flag.reserve(active_count + 1);
    split_rank.reserve(active_count + 1);
    node_boxes.reserve(active_count);
    launch<choose_splits_kernel>({blocks_for(active_count + 1, kNodeThreads), kNodeThreads},
        b.nodes.get(), active.get(), active_count, splits.get(), chunk_count.get(), split_flag.get());
    KD_BUILD_CHECK(cudaGetLastError());
    b.cub.run([&](void* storage, size_t& bytes) {
      return cub::DeviceScan::ExclusiveSum(storage, bytes, chunk_count.get(), first_chunk.get(), int(active_count + 1));
    });
    b.cub.run([&](void* storage, size_t& bytes) {
      return cub::DeviceScan::ExclusiveSum(storage, bytes, split_flag.get(), split_rank.get(), int(active_count + 1));
    });
    const uint32_t chunks = first_chunk.read(active_count);
    const uint32_t split_count = split_rank.read(active_count);

    if (chunks > 0) {
      owner.reserve(chunks);
      chunk_left.reserve(chunks + 1);
      left_scan.reserve(chunks + 1);
      chunk_boxes.reserve(chunks);
      launch<chunk_owner_kernel>({blocks_for(chunks, kNodeThreads), kNodeThreads}, first_chunk.get(), active_count, chunks,
                                 owner.get());
      KD_BUILD_CHECK(cudaGetLastError());
      launch<count_chunks_kernel>({chunks, kChunkThreads}, src, b.nodes.get(), active.get(), splits.get(), first_chunk.get(),
                                  owner.get(), chunk_left.get(), chunk_boxes.get());
      KD_BUILD_CHECK(cudaGetLastError());
      KD_BUILD_CHECK(cudaMemset(chunk_left.get() + chunks, 0, sizeof(uint32_t)));
      b.cub.run([&](void* storage, size_t& bytes) {
        return cub::DeviceScan::ExclusiveSum(storage, bytes, chunk_left.get(), left_scan.get(), int(chunks + 1));
      });
      launch<move_points_kernel>({chunks, kChunkThreads}, src, dst, b.nodes.get(), active.get(), splits.get(), first_chunk.get(),
                                 owner.get(), left_scan.get());
      KD_BUILD_CHECK(cudaGetLastError());
      // Segments of leaf nodes are empty and reduce to empty boxes, which nobody reads.
      const BoxPair nothing{empty_box(), empty_box()};
      b.cub.run([&](void* storage, size_t& bytes) {
        return cub::DeviceSegmentedReduce::Reduce(storage, bytes, chunk_boxes.get(), node_boxes.get(), int(active_count),
                                                  first_chunk.get(), first_chunk.get() + 1, MergePairs{}, nothing);
      });
    }

    const uint32_t children = 2 * split_count;
    if (out.node_count + children > node_capacity) {
      node_capacity = std::max<size_t>(2 * node_capacity, out.node_count + children);
      b.nodes.grow_keeping(node_capacity, out.node_count);
      b.small_roots.grow_keeping(node_capacity, out.small_count);
    }
    small_flag.reserve(children + 1);
    small_rank.reserve(children + 1);
    KD_BUILD_CHECK(cudaMemset(small_flag.get() + children, 0, sizeof(uint32_t)));
    launch<create_children_kernel>({blocks_for(active_count, kNodeThreads), kNodeThreads},
        b.nodes.get(), active.get(), active_count, splits.get(), split_rank.get(), first_chunk.get(),
        chunks > 0 ? left_scan.get() : nullptr, node_boxes.get(), out.node_count, buffer, small_flag.get(),
                                   b.counter.get() + 0);
    KD_BUILD_CHECK(cudaGetLastError());
    uint32_t new_small = 0;
    if (children > 0) {
      b.cub.run([&](void* storage, size_t& bytes) {
        return cub::DeviceScan::ExclusiveSum(storage, bytes, small_flag.get(), small_rank.get(), int(children + 1));
      });
      new_small = small_rank.read(children);
      next.reserve(children);
      launch<sort_children_kernel>({blocks_for(children, kNodeThreads), kNodeThreads},
          small_flag.get(), small_rank.get(), children, out.node_count, b.small_roots.get(), out.small_count, next.get());
      KD_BUILD_CHECK(cudaGetLastError());
    }
    out.node_count += children;
    out.small_count += new_small;
    if (children > 0) out.level_begin.push_back(out.node_count);
    active_count = children - new_small;
    active.swap(next);
    buffer ^= 1;
  }
  KD_BUILD_CHECK(cudaDeviceSynchronize());
}

}  // namespace meniscus::sim::kdtree::cuda_build
