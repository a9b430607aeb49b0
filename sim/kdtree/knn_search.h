#pragma once
// One KNN query on the CPU (internal to sim/kdtree): the range search and Algorithm 6.
#include <cstdint>
#include <vector>

#include "sim/kdtree/knn.h"

namespace meniscus::sim::kdtree {

struct Candidate {
  float d2;
  uint32_t slot;  // position in the tree's point order
};

// Per-thread memory a query reuses.
struct SearchScratch {
  std::vector<uint32_t> stack;
  std::vector<Candidate> candidates, selected;
  std::vector<uint32_t> last_slots;  // the previous query's neighbours (tree point order)
  uint64_t candidate_count = 0;
  uint64_t retries = 0;
  explicit SearchScratch(const KdTree& tree) : stack(tree.stats.max_depth + 2) {}
};

struct QueryConfig {
  uint32_t k;  // already min(k, points)
  uint32_t bins;
  uint32_t iterations;
};

// Finds the k nearest points (also left in scratch.last_slots) to (x, y, z) starting from radius r0 (any value: too small costs
// a repeated search, too large a longer one), writes their input indices and distances nearest
// first, and returns r_k.
float search_knn(const KdTree& tree, float x, float y, float z, float r0, const QueryConfig& config,
                 SearchScratch& scratch, uint32_t* indices, float* distances);

}  // namespace meniscus::sim::kdtree
