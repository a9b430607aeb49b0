// The CUDA triangle kd-tree (triangle_build_cuda.h): the input's usable triangles and their
// bounds, then the large-node stage a level at a time. Children are numbered in pairs in the
// order of their parents and every list keeps its triangles in id order, as the CPU build does.
#include <chrono>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_reduce.cuh>

#include "sim/common/cuda_launch.cuh"
#include "sim/common/segment_owner.cuh"
#include "sim/kdtree/triangle_build_cuda_common.cuh"
#include "sim/kdtree/triangle_build_errors.h"

namespace meniscus::sim::kdtree {
namespace triangle_cuda {
namespace {

// Every triangle's corners, whether it is usable, and the first index out of range.
__global__ void gather_kernel(const glm::vec3* vertices, uint32_t vertex_count, const uint32_t* indices,
                              uint32_t triangles, TriangleCorners* corners, uint32_t* usable, uint32_t* bad_index) {
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t > triangles) return;
  if (t == triangles) {  // closes the array the scan runs over
    usable[t] = 0;
    return;
  }
  uint32_t corner[3];
  bool in_range = true;
  for (uint32_t k = 0; k < 3; ++k) {
    corner[k] = indices[3 * t + k];
    if (corner[k] >= vertex_count) {
      atomicMin(bad_index, 3 * t + k);
      in_range = false;
    }
  }
  if (!in_range) {
    usable[t] = 0;
    return;
  }
  const TriangleCorners c{vertices[corner[0]], vertices[corner[1]], vertices[corner[2]]};
  corners[t] = c;
  usable[t] = usable_triangle(c) ? 1 : 0;
}

__global__ void list_usable_kernel(const TriangleCorners* corners, const uint32_t* usable, const uint32_t* rank,
                                   uint32_t triangles, uint32_t* entry_triangle, Box* entry_box) {
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= triangles || !usable[t]) return;
  entry_triangle[rank[t]] = t;
  entry_box[rank[t]] = triangle_box(corners[t]);
}

__global__ void init_root_kernel(BuildNode* nodes, const Box* bounds, uint32_t usable, uint32_t large_node_triangles) {
  BuildNode root;
  root.box = *bounds;
  root.kind = usable > large_node_triangles ? kOpen : kSmallRoot;
  root.count = usable;
  nodes[0] = root;
}

__global__ void choose_splits_kernel(const BuildNode* nodes, const uint32_t* active, uint32_t count, const Box* tight,
                                     TriangleKdParams params, LargeTriangleSplit* splits) {
  const uint32_t a = blockIdx.x * blockDim.x + threadIdx.x;
  if (a >= count) return;
  const BuildNode& node = nodes[active[a]];
  splits[a] = choose_large_triangle_split(tight[a], node.box, node.depth, params);
}

// The active node whose list holds entry e: the last a with begin[a] <= e.
__global__ void owner_kernel(const uint32_t* begin, uint32_t count, uint32_t entries, uint32_t* owner) {
  const uint32_t e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < entries) owner[e] = owning_segment(begin, count, e);
}

struct EntryView {
  const uint32_t* triangle;
  const Box* box;
};

__global__ void classify_kernel(EntryView src, uint32_t entries, const uint32_t* owner,
                                const LargeTriangleSplit* splits, const TriangleCorners* corners, uint32_t* left,
                                uint32_t* right) {
  const uint32_t e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e > entries) return;
  left[e] = right[e] = 0;
  if (e == entries) return;
  const LargeTriangleSplit& s = splits[owner[e]];
  if (s.leaf) return;
  const TriangleSides sides = classify_triangle(corners[src.triangle[e]], src.box[e], s);
  left[e] = sides.left ? 1 : 0;
  right[e] = sides.right ? 1 : 0;
}

// Per active node: whether its split stands (a split that leaves every triangle on both sides
// does not), and what it adds to the store and the next level. One more thread closes the scan.
__global__ void count_level_kernel(const uint32_t* begin, uint32_t count, const uint32_t* left_rank,
                                   const uint32_t* right_rank, uint32_t large_node_triangles,
                                   LargeTriangleSplit* splits, LevelCounts* counts) {
  const uint32_t a = blockIdx.x * blockDim.x + threadIdx.x;
  if (a > count) return;
  LevelCounts c;
  if (a == count) {
    counts[a] = c;
    return;
  }
  const uint32_t n = begin[a + 1] - begin[a];
  const uint32_t left = left_rank[begin[a + 1]] - left_rank[begin[a]];
  const uint32_t right = right_rank[begin[a + 1]] - right_rank[begin[a]];
  LargeTriangleSplit& s = splits[a];
  if (!s.leaf && split_gains_nothing(s, n, left, right)) s.leaf = true;
  if (s.leaf) {
    c.stored = n;
  } else {
    c.splits = 1;
    for (const uint32_t side : {left, right}) {
      if (side == 0) continue;  // an empty leaf
      if (side <= large_node_triangles) {
        c.stored += side;
      } else {
        c.next_entries += side;
        c.next_nodes += 1;
      }
    }
  }
  counts[a] = c;
}

struct LevelPlace {
  uint32_t node_count;   // nodes before this level's children
  uint32_t store_count;  // the store's triangles before this level's
};

// Writes each active node's outcome and its children (build numbers node_count + 2 rank + side),
// lists the next level's nodes, and says where each node's triangles go.
__global__ void create_children_kernel(BuildNode* nodes, const uint32_t* active, uint32_t count, const uint32_t* begin,
                                       const uint32_t* left_rank, const uint32_t* right_rank,
                                       const LargeTriangleSplit* splits, const LevelCounts* bases, LevelPlace place,
                                       uint32_t large_node_triangles, uint32_t* next_active, uint32_t* next_begin,
                                       Destination* destinations) {
  const uint32_t a = blockIdx.x * blockDim.x + threadIdx.x;
  if (a >= count) return;
  const uint32_t id = active[a];
  BuildNode node = nodes[id];
  const LargeTriangleSplit& s = splits[a];
  const LevelCounts& base = bases[a];
  Destination d;
  uint32_t stored = place.store_count + base.stored;
  if (s.leaf) {
    node.kind = kStoredLeaf;
    node.first = stored;
    node.count = begin[a + 1] - begin[a];
    d.left_to = kStore;
    d.left_at = stored;
    nodes[id] = node;
    destinations[a] = d;
    return;
  }
  const uint32_t sizes[2] = {left_rank[begin[a + 1]] - left_rank[begin[a]],
                             right_rank[begin[a + 1]] - right_rank[begin[a]]};
  const uint32_t first_child = place.node_count + 2 * base.splits;
  uint32_t next_entry = base.next_entries, next_node = base.next_nodes;
  for (uint32_t side = 0; side < 2; ++side) {
    BuildNode child;
    child.box = side ? s.right_box : s.left_box;
    child.depth = node.depth + 1;
    child.count = sizes[side];
    uint32_t to = kNowhere, at = 0;
    if (sizes[side] == 0) {
      child.kind = kEmptyLeaf;
    } else if (sizes[side] <= large_node_triangles) {
      child.kind = kSmallRoot;
      child.first = at = stored;
      to = kStore;
      stored += sizes[side];
    } else {
      child.kind = kOpen;
      next_active[next_node] = first_child + side;
      next_begin[next_node] = at = next_entry;
      to = kNextLevel;
      next_node += 1;
      next_entry += sizes[side];
    }
    (side ? d.right_to : d.left_to) = to;
    (side ? d.right_at : d.left_at) = at;
    nodes[first_child + side] = child;
  }
  node.kind = kInterior;
  node.axis = s.axis;
  node.split = s.split;
  node.left = first_child;
  node.right = first_child + 1;
  nodes[id] = node;
  destinations[a] = d;
}

struct EntryTargets {
  uint32_t *store_triangle, *next_triangle;
  Box *store_box, *next_box;
  __device__ void put(uint32_t to, uint32_t at, uint32_t triangle, const Box& box) const {
    if (to == kStore) {
      store_triangle[at] = triangle;
      store_box[at] = box;
    } else if (to == kNextLevel) {
      next_triangle[at] = triangle;
      next_box[at] = box;
    }
  }
};

// The stable list split: a node's triangles going left keep their order, then those going
// right keep theirs, each with its box clipped to its child; a leaf's go to the store as they are.
__global__ void move_entries_kernel(EntryView src, uint32_t entries, const uint32_t* owner, const uint32_t* begin,
                                    const LargeTriangleSplit* splits, const Destination* destinations,
                                    const uint32_t* left_rank, const uint32_t* right_rank,
                                    const TriangleCorners* corners, EntryTargets targets) {
  const uint32_t e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= entries) return;
  const uint32_t a = owner[e];
  const Destination& d = destinations[a];
  const LargeTriangleSplit& s = splits[a];
  const uint32_t triangle = src.triangle[e];
  const uint32_t first = begin[a];
  if (s.leaf) {
    targets.put(d.left_to, d.left_at + (e - first), triangle, src.box[e]);
    return;
  }
  const TriangleSides sides = classify_triangle(corners[triangle], src.box[e], s);
  if (sides.left) targets.put(d.left_to, d.left_at + (left_rank[e] - left_rank[first]), triangle, sides.left_box);
  if (sides.right) targets.put(d.right_to, d.right_at + (right_rank[e] - right_rank[first]), triangle, sides.right_box);
}

}  // namespace

void run_large_stage(DeviceTriangleKdTree::Scratch& s, uint32_t usable, const TriangleKdParams& params,
                     LargeStageResult& out) {
  out = LargeStageResult{};
  out.node_count = 1;
  out.level_begin = {0, 1};
  const uint32_t large = params.large_node_triangles;
  uint32_t store_count = 0;
  if (usable <= large) {  // the root is the only small root
    s.store.grow_keeping(usable, 0);
    TRI_BUILD_CHECK(cudaMemcpy(s.store.triangle.get(), s.entries[0].triangle.get(), sizeof(uint32_t) * usable,
                               cudaMemcpyDeviceToDevice));
    TRI_BUILD_CHECK(
        cudaMemcpy(s.store.box.get(), s.entries[0].box.get(), sizeof(Box) * usable, cudaMemcpyDeviceToDevice));
    return;
  }
  s.active.reserve(1);
  s.begin.reserve(2);
  const uint32_t root_list[2] = {0, usable};
  TRI_BUILD_CHECK(cudaMemcpy(s.active.get(), root_list, sizeof(uint32_t), cudaMemcpyHostToDevice));
  TRI_BUILD_CHECK(cudaMemcpy(s.begin.get(), root_list, 2 * sizeof(uint32_t), cudaMemcpyHostToDevice));
  uint32_t count = 1, entries = usable;
  int buffer = 0;
  while (count > 0) {
    ++out.levels;
    const EntryView src{s.entries[buffer].triangle.get(), s.entries[buffer].box.get()};
    s.tight.reserve(count);
    s.splits.reserve(count);
    s.destinations.reserve(count);
    s.counts.reserve(count + 1);
    s.bases.reserve(count + 1);
    s.owner.reserve(entries);
    s.left_flag.reserve(entries + 1);
    s.right_flag.reserve(entries + 1);
    s.left_rank.reserve(entries + 1);
    s.right_rank.reserve(entries + 1);

    s.cub.run([&](void* storage, size_t& bytes) {
      return cub::DeviceSegmentedReduce::Reduce(storage, bytes, src.box, s.tight.get(), int(count), s.begin.get(),
                                                s.begin.get() + 1, MergeBoxes{}, empty_box());
    });
    launch<choose_splits_kernel>({blocks_for(count), kThreads}, s.nodes.get(), s.active.get(), count, s.tight.get(),
                                 params, s.splits.get());
    TRI_BUILD_CHECK(cudaGetLastError());
    launch<owner_kernel>({blocks_for(entries), kThreads}, s.begin.get(), count, entries, s.owner.get());
    TRI_BUILD_CHECK(cudaGetLastError());
    launch<classify_kernel>({blocks_for(entries + 1), kThreads}, src, entries, s.owner.get(), s.splits.get(),
                            s.corners.get(), s.left_flag.get(), s.right_flag.get());
    TRI_BUILD_CHECK(cudaGetLastError());
    s.cub.run([&](void* storage, size_t& bytes) {
      return cub::DeviceScan::ExclusiveSum(storage, bytes, s.left_flag.get(), s.left_rank.get(), int(entries + 1));
    });
    s.cub.run([&](void* storage, size_t& bytes) {
      return cub::DeviceScan::ExclusiveSum(storage, bytes, s.right_flag.get(), s.right_rank.get(), int(entries + 1));
    });
    launch<count_level_kernel>({blocks_for(count + 1), kThreads}, s.begin.get(), count, s.left_rank.get(),
                               s.right_rank.get(), large, s.splits.get(), s.counts.get());
    TRI_BUILD_CHECK(cudaGetLastError());
    s.cub.run([&](void* storage, size_t& bytes) {
      return cub::DeviceScan::ExclusiveScan(storage, bytes, s.counts.get(), s.bases.get(), AddCounts{}, LevelCounts{},
                                            int(count + 1));
    });
    const LevelCounts total = s.bases.read(count);

    const uint32_t children = 2 * total.splits;
    s.nodes.grow_keeping(out.node_count + children, out.node_count, "the triangle kd-tree's nodes");
    s.store.grow_keeping(store_count + total.stored, store_count);
    EntryArrays& next = s.entries[buffer ^ 1];
    next.triangle.reserve(total.next_entries, "the triangle kd-tree's triangle lists");
    next.box.reserve(total.next_entries, "the triangle kd-tree's triangle lists");
    s.next_active.reserve(total.next_nodes + 1);
    s.next_begin.reserve(total.next_nodes + 1);
    TRI_BUILD_CHECK(cudaMemcpy(s.next_begin.get() + total.next_nodes, &total.next_entries, sizeof(uint32_t),
                               cudaMemcpyHostToDevice));
    launch<create_children_kernel>({blocks_for(count), kThreads}, s.nodes.get(), s.active.get(), count, s.begin.get(),
                                   s.left_rank.get(), s.right_rank.get(), s.splits.get(), s.bases.get(),
                                   LevelPlace{out.node_count, store_count}, large, s.next_active.get(),
                                   s.next_begin.get(), s.destinations.get());
    TRI_BUILD_CHECK(cudaGetLastError());
    const EntryTargets targets{s.store.triangle.get(), next.triangle.get(), s.store.box.get(), next.box.get()};
    launch<move_entries_kernel>({blocks_for(entries), kThreads}, src, entries, s.owner.get(), s.begin.get(),
                                s.splits.get(), s.destinations.get(), s.left_rank.get(), s.right_rank.get(),
                                s.corners.get(), targets);
    TRI_BUILD_CHECK(cudaGetLastError());

    out.node_count += children;
    if (children > 0) out.level_begin.push_back(out.node_count);
    store_count += total.stored;
    count = total.next_nodes;
    entries = total.next_entries;
    s.active.swap(s.next_active);
    s.begin.swap(s.next_begin);
    buffer ^= 1;
  }
}

}  // namespace triangle_cuda

using Clock = std::chrono::steady_clock;

DeviceTriangleKdTree::DeviceTriangleKdTree() : scratch_(std::make_unique<Scratch>()) {}
DeviceTriangleKdTree::~DeviceTriangleKdTree() = default;

TriangleKdView DeviceTriangleKdTree::view() const {
  if (counts_.nodes == 0) return TriangleKdView{};
  return TriangleKdView{nodes_.get(), leaf_triangles_.get(), leaf_geometry_.get(), lo_, hi_};
}

void DeviceTriangleKdTree::build(const glm::vec3* vertices, uint32_t vertex_count, const uint32_t* indices,
                                 uint32_t triangle_count, const TriangleKdParams& params) {
  using namespace triangle_cuda;
  validate_triangle_kd_params(params);
  validate_index_count(size_t(triangle_count) * 3);  // index positions are 32-bit here
  counts_ = DeviceTriangleKdCounts{};
  lo_ = hi_ = glm::vec3(0.0f);
  Scratch& s = *scratch_;
  if (triangle_count == 0) return;
  const uint32_t n = triangle_count;
  s.corners.reserve(n, "the triangle kd-tree's corners");
  s.flags.reserve(n + 1);
  s.ranks.reserve(n + 1);
  s.bad_index.reserve(1);
  TRI_BUILD_CHECK(cudaMemset(s.bad_index.get(), 0xff, sizeof(uint32_t)));
  launch<gather_kernel>({blocks_for(n + 1), kThreads}, vertices, vertex_count, indices, n, s.corners.get(),
                        s.flags.get(), s.bad_index.get());
  TRI_BUILD_CHECK(cudaGetLastError());
  const uint32_t bad = s.bad_index.read(0);
  if (bad != UINT32_MAX) {
    uint32_t vertex = 0;
    TRI_BUILD_CHECK(cudaMemcpy(&vertex, indices + bad, sizeof vertex, cudaMemcpyDeviceToHost));
    throw_index_out_of_range(bad, vertex, vertex_count);
  }
  s.cub.run([&](void* storage, size_t& bytes) {
    return cub::DeviceScan::ExclusiveSum(storage, bytes, s.flags.get(), s.ranks.get(), int(n + 1));
  });
  const uint32_t usable = s.ranks.read(n);
  counts_.triangles = usable;
  counts_.skipped = n - usable;
  if (usable == 0) return;
  s.entries[0].triangle.reserve(usable, "the triangle kd-tree's triangle lists");
  s.entries[0].box.reserve(usable, "the triangle kd-tree's triangle lists");
  launch<list_usable_kernel>({blocks_for(n), kThreads}, s.corners.get(), s.flags.get(), s.ranks.get(), n,
                             s.entries[0].triangle.get(), s.entries[0].box.get());
  TRI_BUILD_CHECK(cudaGetLastError());
  s.bounds.reserve(1);
  s.cub.run([&](void* storage, size_t& bytes) {
    return cub::DeviceReduce::Reduce(storage, bytes, s.entries[0].box.get(), s.bounds.get(), int(usable), MergeBoxes{},
                                     empty_box());
  });
  const Box bounds = s.bounds.read(0);
  lo_ = bounds.lo;
  hi_ = bounds.hi;
  s.nodes.reserve(std::max<size_t>(1024, 2 * (size_t(usable) / params.large_node_triangles + 1)),
                  "the triangle kd-tree's nodes");
  launch<init_root_kernel>({1, 1}, s.nodes.get(), s.bounds.get(), usable, params.large_node_triangles);
  TRI_BUILD_CHECK(cudaGetLastError());

  LargeStageResult large;
  run_large_stage(s, usable, params, large);
  counts_.large_levels = large.levels;
  run_small_stage_and_output(s, large, params, OutputArrays{nodes_, leaf_triangles_, leaf_geometry_}, counts_);
}

}  // namespace meniscus::sim::kdtree
