// One KNN query on the CPU. Algorithm 6 narrows a conservative radius r0 towards r_k with
// histogram rounds, each a fresh range search, because a GPU thread cannot hold the points it
// found. A CPU thread can hold a sorted list of k (distance, index) pairs, and then the radius
// narrows continuously instead: the range search starts from r0, and as soon as k points are
// inside, every further point and box is tested against the current k-th distance. One walk,
// no histogram, no candidate list; the same neighbours as Algorithm 6 (exact either way). The
// walk descends the near child first, so the query's own leaf and its siblings fill the list
// before the far subtrees are tested against a radius that is by then about r_k.
#include "sim/kdtree/knn_search.h"

#include <algorithm>
#include <cmath>

namespace meniscus::sim::kdtree {
namespace {

// The range search of radius sqrt(accept2) that keeps the k nearest by (squared distance, input
// index) in scratch.best, shrinking to the k-th distance once k are found.
void bounded_search(const KdTree& tree, float x, float y, float z, float accept2, uint32_t k, SearchScratch& s) {
  const KdNode* nodes = tree.nodes.data();
  const float *px = tree.x.data(), *py = tree.y.data(), *pz = tree.z.data();
  const uint32_t* ids = tree.ids.data();
  s.best.clear(0);
  float* best_d2 = s.best.row_d2(0);
  uint32_t* best_ids = s.best.row_ids(0);
  uint32_t* stack = s.stack.data();
  uint32_t found = 0;
  // `limit`: points farther are not kept. `prune`: boxes farther are skipped.
  float limit = accept2, prune = accept2;
  uint64_t tested = 0, visited = 0;
  alignas(64) float d2[kLeafBatch];
  int top = 0;
  uint32_t i = 0;
  for (;;) {
    const KdNode& node = nodes[i];
    ++visited;
    if (box_distance2(node.lo, node.hi, x, y, z) <= prune) {
      if (node.axis != kLeafAxis) {
        const float q = node.axis == 0 ? x : (node.axis == 1 ? y : z);
        const bool left_near = q < node.split;
        stack[top++] = left_near ? node.index : i + 1;
        i = left_near ? i + 1 : node.index;
        continue;
      }
      const uint32_t end = node.index + node.count;
      tested += node.count;
      for (uint32_t b = node.index; b < end; b += kLeafBatch) {
        const uint32_t n = std::min(kLeafBatch, end - b);
        for (uint32_t j = 0; j < n; ++j) d2[j] = distance2(px[b + j], py[b + j], pz[b + j], x, y, z);
        for (uint32_t j = 0; j < n; ++j) {
          const float d = d2[j];
          if (d > limit) continue;
          const float kth = offer_neighbour_baseline(best_d2, best_ids, k, d, ids[b + j]);
          found += found < k;
          if (found == k) {
            limit = kth;
            prune = prune_bound(limit);
          }
        }
      }
    }
    if (top == 0) break;
    i = stack[--top];
  }
  s.found = found;
  s.points_tested += tested;
  s.nodes_visited += visited;
}

}  // namespace

float search_knn(const KdTree& tree, float x, float y, float z, float r0, uint32_t k, SearchScratch& scratch,
                 uint32_t* indices, float* distances) {
  const KdNode& root = tree.nodes[0];
  float r = std::max(r0, 0.0f);
  for (;;) {
    bounded_search(tree, x, y, z, widened(r), k, scratch);
    if (scratch.found >= k) break;
    const float far2 = farthest_distance2(root.lo, root.hi, x, y, z);
    if (widened(r) >= far2) break;  // every point was inside: fewer than k in the tree
    // r0 held too few points: grow it, at least to reach the points' box.
    ++scratch.retries;
    const float diagonal = std::sqrt(distance2(root.lo[0], root.lo[1], root.lo[2], root.hi[0], root.hi[1], root.hi[2]));
    const float reach = std::sqrt(box_distance2(root.lo, root.hi, x, y, z)) + 1e-3f * diagonal;
    r = std::max({2.0f * r, reach, 1e-30f});
    if (r * r > far2) r = std::sqrt(far2) * (1.0f + 1e-6f);
  }
  const uint32_t take = scratch.found;
  for (uint32_t j = 0; j < take; ++j) {
    indices[j] = scratch.best.index(0, j);
    distances[j] = std::sqrt(scratch.best.distance2(0, j));
  }
  return take > 0 ? distances[take - 1] : 0.0f;
}

}  // namespace meniscus::sim::kdtree
