#pragma once
// KNN for a packet of nearby queries on the CPU (internal to sim/kdtree). Queries in leaf or
// Morton order come in runs that are a point spacing or two apart, and they visit nearly the same
// nodes; walking the tree once for a packet of them, testing each node's box against all of
// them in one vectorised loop, shares the walk (and its mispredicted branches) among them. Each
// query keeps its own list of k nearest and its own shrinking radius, so its answer is the one a
// search of its own would give.
#include <cstdint>

#include "sim/kdtree/knn_search.h"
#include "sim/kdtree/neighbour_list.h"

namespace meniscus::sim::kdtree {

inline constexpr uint32_t kPacketSize = 16;  // one AVX-512 register, four SSE ones

struct QueryPacket {
  uint32_t count = 0;  // queries in use, at most kPacketSize
  alignas(64) float x[kPacketSize];
  alignas(64) float y[kPacketSize];
  alignas(64) float z[kPacketSize];
  float r0[kPacketSize];  // initial radii (any value; see search_knn)
};

// Per-thread lists of the packet's queries: lane j's k nearest so far, and how many.
struct PacketScratch {
  NeighbourLists best;
  uint32_t found[kPacketSize] = {};
  explicit PacketScratch(uint32_t k) : best(kPacketSize, k) {}
};

// Finds the k nearest points of each query in the packet and writes query j's input indices
// and distances, nearest first, to indices[j] and distances[j] (k each). A query whose r0 held
// fewer than k points is searched again on its own with a growing radius.
void search_knn_packet(const KdTree& tree, const QueryPacket& packet, uint32_t k, KnnKernels kernels,
                       SearchScratch& scratch, PacketScratch& lists, uint32_t* const* indices, float* const* distances);

}  // namespace meniscus::sim::kdtree
