// Algorithm 7's PRECOMPUTERADIUS on the CPU.
#include "sim/kdtree/radius_estimate.h"

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <limits>

#include "sim/kdtree/knn_packet.h"

namespace meniscus::sim::kdtree {
namespace {

float node_extent_radius(const KdNode& node) {
  return 0.5f * std::sqrt(distance2(node.lo[0], node.lo[1], node.lo[2], node.hi[0], node.hi[1], node.hi[2]));
}

// Preorder nodes for which a radius is computed: the topmost with radius < alpha R and their
// descendants down to `levels` levels in all.
std::vector<uint32_t> radius_nodes(const KdTree& tree, float limit, uint32_t levels) {
  std::vector<uint32_t> work;
  if (levels == 0) return work;
  std::vector<std::pair<uint32_t, uint32_t>> stack{{0u, 0u}};  // node, level below a topmost node (0: above)
  while (!stack.empty()) {
    const auto [i, level] = stack.back();
    stack.pop_back();
    const KdNode& node = tree.nodes[i];
    uint32_t below = level;
    if (below == 0 && node_extent_radius(node) < limit) below = 1;
    if (below > 0) work.push_back(i);
    if (node.axis == kLeafAxis || below == levels) continue;
    stack.push_back({node.index, below == 0 ? 0 : below + 1});
    stack.push_back({i + 1, below == 0 ? 0 : below + 1});
  }
  std::sort(work.begin(), work.end());
  return work;
}

}  // namespace

RadiusTable precompute_radii(const KdTree& tree, uint32_t k, const KnnParams& params) {
  RadiusTable table;
  // The paper's R is conservative by construction (from a minimal density); the tree's R is a
  // median, short of the k-th distance for about half of the points, and a short r0 costs a
  // second range search. Twice the median covers nearly all of them. Without an R (all points
  // coincide) the root box's diagonal holds every point.
  const KdNode& root = tree.nodes[0];
  table.radius = tree.query_radius > 0.0f ? 2.0f * tree.query_radius : 2.0f * node_extent_radius(root);
  table.node_radius.assign(tree.nodes.size(), std::numeric_limits<float>::infinity());
  table.node_centre.assign(3 * tree.nodes.size(), 0.0f);
  const std::vector<uint32_t> work = radius_nodes(tree, params.alpha * table.radius, params.estimate_levels);
  table.computed = uint32_t(work.size());
  // Work nodes are in preorder, so runs of them are close together: searched as packets.
  struct Scratch {
    SearchScratch single;
    PacketScratch lists;
  };
  tbb::enumerable_thread_specific<Scratch> scratch([&] { return Scratch{SearchScratch(tree, k), PacketScratch(k)}; });
  tbb::parallel_for(tbb::blocked_range<size_t>(0, work.size(), 64), [&](const tbb::blocked_range<size_t>& range) {
    Scratch& s = scratch.local();
    std::vector<uint32_t> indices(size_t(k) * kPacketSize);
    std::vector<float> distances(size_t(k) * kPacketSize);
    uint32_t* rows_indices[kPacketSize];
    float* rows_distances[kPacketSize];
    for (uint32_t l = 0; l < kPacketSize; ++l) {
      rows_indices[l] = &indices[size_t(l) * k];
      rows_distances[l] = &distances[size_t(l) * k];
    }
    QueryPacket packet;
    for (size_t first = range.begin(); first < range.end(); first += kPacketSize) {
      packet.count = uint32_t(std::min<size_t>(kPacketSize, range.end() - first));
      for (uint32_t l = 0; l < packet.count; ++l) {
        const KdNode& node = tree.nodes[work[first + l]];
        float* c = &table.node_centre[3 * size_t(work[first + l])];
        for (int a = 0; a < 3; ++a) c[a] = 0.5f * (node.lo[a] + node.hi[a]);
        packet.x[l] = c[0];
        packet.y[l] = c[1];
        packet.z[l] = c[2];
        packet.r0[l] = table.radius;
      }
      search_knn_packet(tree, packet, k, params.kernels, s.single, s.lists, rows_indices, rows_distances);
      for (uint32_t l = 0; l < packet.count; ++l) table.node_radius[work[first + l]] = rows_distances[l][k - 1];
    }
  });
  return table;
}

}  // namespace meniscus::sim::kdtree
