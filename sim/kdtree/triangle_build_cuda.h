#pragma once
// The triangle kd-tree built on the CUDA device from scratch every frame, as Zhou et al. 2008 §3
// run it on a GPU, with the CPU build's rules (triangle_build_rules.h, small_triangle_root.h), so
// it is the CPU's tree node for node:
//  - large-node stage, a level of nodes at a time: each node's tight box by a segmented
//    reduction over its triangles' clipped boxes, its split by a thread, each triangle's sides
//    (clipped where it crosses) by a thread, scans that number the children and place their
//    triangles, order kept, in the next level's list or the store of small roots and leaves;
//  - small-node stage: a thread per small root runs its exact-SAH subtree over bit masks;
//  - preorder output: subtree sizes and leaf entries bottom-up over the large levels, addresses
//    top-down, then a thread per node writes it (a small root: its whole subtree).
// The tree stays on the device for the tracers (view()). The host reads a few counts a level.
// CUDA builds only.
#include <cuda_runtime.h>

#include <memory>
#include <vector>

#include "sim/common/cuda_support.cuh"
#include "sim/kdtree/triangle_build_rules.h"
#include "sim/kdtree/triangle_kd_node.h"
#include "sim/kdtree/triangle_traversal.h"

namespace meniscus::sim::kdtree {

struct DeviceTriangleKdCounts {
  uint32_t triangles = 0;  // the usable ones
  uint32_t skipped = 0;    // degenerate, NaN or infinite
  uint32_t large_levels = 0;
  uint32_t small_roots = 0;
  uint32_t nodes = 0;
  uint32_t references = 0;  // leaf entries
};

class DeviceTriangleKdTree {
 public:
  DeviceTriangleKdTree();
  ~DeviceTriangleKdTree();
  DeviceTriangleKdTree(const DeviceTriangleKdTree&) = delete;
  DeviceTriangleKdTree& operator=(const DeviceTriangleKdTree&) = delete;

  // Builds the tree of `triangle_count` triangles, `indices` three per triangle into `vertices`
  // (both on the device), on the legacy default stream; returns when it is built. Scratch is
  // kept for the next frame. InputError for parameters out of range or an index out of range
  // (the first one), DeviceError / DeviceMemoryError from CUDA.
  void build(const glm::vec3* vertices, uint32_t vertex_count, const uint32_t* indices, uint32_t triangle_count,
             const TriangleKdParams& params);

  TriangleKdView view() const;
  const DeviceTriangleKdCounts& counts() const { return counts_; }
  glm::vec3 lo() const { return lo_; }
  glm::vec3 hi() const { return hi_; }

  struct Scratch;  // the stages' working arrays (triangle_build_cuda_common.cuh)

  // Copies of the preorder arrays, for tests and the benchmark.
  std::vector<TriangleKdNode> download_nodes() const { return nodes_.download(counts_.nodes); }
  std::vector<uint32_t> download_leaf_triangles() const { return leaf_triangles_.download(counts_.references); }
  std::vector<LeafTriangle> download_leaf_geometry() const { return leaf_geometry_.download(counts_.references); }

 private:
  std::unique_ptr<Scratch> scratch_;
  DeviceArray<TriangleKdNode> nodes_;
  DeviceArray<uint32_t> leaf_triangles_;
  DeviceArray<LeafTriangle> leaf_geometry_;
  glm::vec3 lo_{0.0f}, hi_{0.0f};
  DeviceTriangleKdCounts counts_;
};

}  // namespace meniscus::sim::kdtree
