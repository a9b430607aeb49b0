#pragma once
// One KNN query on the CPU (internal to sim/kdtree): a range search that keeps the k nearest.
#include <cstdint>
#include <vector>

#include "sim/kdtree/knn.h"
#include "sim/kdtree/neighbour_list.h"

namespace meniscus::sim::kdtree {

// Points a leaf's distances are computed for at once, in a loop the compiler vectorises.
constexpr uint32_t kLeafBatch = 32;

// Per-thread memory a query reuses: nothing is allocated per query.
struct SearchScratch {
  std::vector<uint32_t> stack;
  NeighbourLists best;  // one list: the k nearest found so far
  uint32_t found = 0;
  uint64_t points_tested = 0;  // distances computed
  uint64_t nodes_visited = 0;  // nodes whose box was tested
  uint64_t retries = 0;        // searches repeated because r0 held fewer than k points
  SearchScratch(const KdTree& tree, uint32_t k)
      : stack(tree.stats.max_depth + 2), best(1, k) {}
};

// A box's squared distance is formed from the same rounded coordinate differences as a point's,
// so it never exceeds the distance of a point inside it, and pruning boxes beyond the k-th
// squared distance is exact. The relative slack only guards against a compiler contracting the
// two formulas into fused multiply-adds differently.
inline float prune_bound(float limit) { return limit * (1.0f + 1e-6f); }

// r0 is a radius, not a squared distance: a distance near it may round either way once squared,
// and keeping such a point is never wrong (the list keeps the exact k nearest).
inline float widened(float r) { return r * r * (1.0f + 1e-5f) + 1e-37f; }

// Finds the k nearest points to (x, y, z) (k already min(k, points)) starting from radius r0:
// any value is correct, too small costs a repeated search and too large a few more points
// tested. Leaves them in scratch.best, writes their input indices and distances nearest
// first, and returns r_k.
float search_knn(const KdTree& tree, float x, float y, float z, float r0, uint32_t k, SearchScratch& scratch,
                 uint32_t* indices, float* distances);

}  // namespace meniscus::sim::kdtree
