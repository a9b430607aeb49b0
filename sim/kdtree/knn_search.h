#pragma once
// One KNN query on the CPU (internal to sim/kdtree): a range search that keeps the k nearest.
#include <cstdint>
#include <cstring>
#include <vector>

#include "sim/kdtree/knn.h"

namespace meniscus::sim::kdtree {

// Per-thread memory a query reuses: nothing is allocated per query.
struct SearchScratch {
  std::vector<uint32_t> stack;
  std::vector<uint64_t> best;  // the k nearest found so far (neighbour_key), sorted
  uint32_t found = 0;
  uint64_t points_tested = 0;  // distances computed
  uint64_t nodes_visited = 0;  // nodes whose box was tested
  uint64_t retries = 0;        // searches repeated because r0 held fewer than k points
  SearchScratch(const KdTree& tree, uint32_t k)
      : stack(tree.stats.max_depth + 2), best(k) {}
};

// A neighbour as one sortable number: the squared distance's bits (a non-negative float's bits
// order as the float does) above the input index, so that the list's order, ties to the lower
// index included, is one integer comparison and does not depend on the order points are offered.
inline uint64_t neighbour_key(float d2, uint32_t id) {
  uint32_t bits;
  std::memcpy(&bits, &d2, sizeof bits);
  return (uint64_t(bits) << 32) | id;
}
inline float key_distance2(uint64_t key) {
  const uint32_t bits = uint32_t(key >> 32);
  float d2;
  std::memcpy(&d2, &bits, sizeof d2);
  return d2;
}
inline uint32_t key_index(uint64_t key) { return uint32_t(key); }

// Offers a point to the sorted list of the `found` <= k nearest so far. Returns the bound for
// later points: the k-th squared distance once the list is full, else `limit` unchanged.
inline float offer_neighbour(uint64_t* best, uint32_t& found, uint32_t k, uint64_t key, float limit) {
  uint32_t at;
  if (found == k) {
    if (key > best[k - 1]) return limit;
    at = k - 1;
  } else {
    at = found++;
  }
  for (; at > 0 && best[at - 1] > key; --at) best[at] = best[at - 1];
  best[at] = key;
  return found == k ? key_distance2(best[k - 1]) : limit;
}

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
