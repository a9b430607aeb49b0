// The packet walk: one near-first traversal for up to kPacketSize queries. A node is entered
// when its box is within some query's radius, and a leaf's points are tested for the queries
// whose radius reaches its box. "Near" is the side of the packet's centre.
#include "sim/kdtree/knn_packet.h"

#include <algorithm>
#include <cmath>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

namespace meniscus::sim::kdtree {
namespace {

constexpr uint32_t kLeafBatch = 32;
static_assert(kLeafBatch == 32, "points_within packs a batch into 32 bits");

// box_distance2 of kdtree_rules.h written as max(lo - x, x - hi, 0) per axis: the very same
// rounded numbers (lo <= hi in every node, and a nonzero difference of floats keeps its sign),
// for all lanes at once. Returns the lanes whose `prune` the box distance does not exceed.
#if defined(__SSE2__)
inline __m128 axis_gap(__m128 lo, __m128 hi, __m128 x) {
  return _mm_max_ps(_mm_max_ps(_mm_sub_ps(lo, x), _mm_sub_ps(x, hi)), _mm_setzero_ps());
}

inline uint32_t lanes_reaching(const KdNode& node, const QueryPacket& q, const float* prune) {
  const __m128 lo0 = _mm_set1_ps(node.lo[0]), lo1 = _mm_set1_ps(node.lo[1]), lo2 = _mm_set1_ps(node.lo[2]);
  const __m128 hi0 = _mm_set1_ps(node.hi[0]), hi1 = _mm_set1_ps(node.hi[1]), hi2 = _mm_set1_ps(node.hi[2]);
  uint32_t reach = 0;
  for (uint32_t l = 0; l < kPacketSize; l += 4) {
    const __m128 dx = axis_gap(lo0, hi0, _mm_load_ps(q.x + l));
    const __m128 dy = axis_gap(lo1, hi1, _mm_load_ps(q.y + l));
    const __m128 dz = axis_gap(lo2, hi2, _mm_load_ps(q.z + l));
    // ((dx dx + dy dy) + dz dz), the order box_distance2 adds in.
    const __m128 d2 = _mm_add_ps(_mm_add_ps(_mm_mul_ps(dx, dx), _mm_mul_ps(dy, dy)), _mm_mul_ps(dz, dz));
    reach |= uint32_t(_mm_movemask_ps(_mm_cmple_ps(d2, _mm_load_ps(prune + l)))) << l;
  }
  return reach;
}
#else
inline uint32_t lanes_reaching(const KdNode& node, const QueryPacket& q, const float* prune) {
  uint32_t reach = 0;
  for (uint32_t l = 0; l < kPacketSize; ++l)
    reach |= uint32_t(box_distance2(node.lo, node.hi, q.x[l], q.y[l], q.z[l]) <= prune[l]) << l;
  return reach;
}
#endif

// The batch's points with d2 <= limit as a bit mask: only those are offered to the list, so
// the loop branches once per point that may enter instead of once per point tested (most are
// beyond the limit, and that branch mispredicts). Lanes past n hold an earlier batch's
// distances (or the zeros the buffer starts with) and are masked off.
#if defined(__SSE2__)
inline uint32_t points_within(const float* d2, uint32_t n, float limit) {
  const __m128 lim = _mm_set1_ps(limit);
  uint32_t mask = 0;
  for (uint32_t j = 0; j < n; j += 4) mask |= uint32_t(_mm_movemask_ps(_mm_cmple_ps(_mm_load_ps(d2 + j), lim))) << j;
  return n == 32 ? mask : mask & ((1u << n) - 1u);
}
#else
inline uint32_t points_within(const float* d2, uint32_t n, float limit) {
  uint32_t mask = 0;
  for (uint32_t j = 0; j < n; ++j) mask |= uint32_t(d2[j] <= limit) << j;
  return mask;
}
#endif

}  // namespace

void search_knn_packet(const KdTree& tree, const QueryPacket& q, uint32_t k, SearchScratch& scratch,
                       PacketScratch& lists, uint32_t* const* indices, float* const* distances) {
  const KdNode* nodes = tree.nodes.data();
  const float *px = tree.x.data(), *py = tree.y.data(), *pz = tree.z.data();
  const uint32_t* ids = tree.ids.data();
  uint32_t* stack = scratch.stack.data();

  // Per lane: `limit`, points farther are not kept; `prune`, boxes farther are skipped. Unused
  // lanes get a negative radius that no box distance passes.
  alignas(32) float limit[kPacketSize], prune[kPacketSize];
  float cx = 0.0f, cy = 0.0f, cz = 0.0f;
  for (uint32_t l = 0; l < kPacketSize; ++l) {
    lists.found[l] = 0;
    limit[l] = prune[l] = l < q.count ? widened(std::max(q.r0[l], 0.0f)) : -1.0f;
    if (l < q.count) {
      cx += q.x[l];
      cy += q.y[l];
      cz += q.z[l];
    }
  }
  const float centre[3] = {cx / float(q.count), cy / float(q.count), cz / float(q.count)};

  uint64_t tested = 0, visited = 0;
  alignas(64) float d2[kLeafBatch] = {};
  int top = 0;
  uint32_t i = 0;
  for (;;) {
    const KdNode& node = nodes[i];
    ++visited;
    const uint32_t reach = lanes_reaching(node, q, prune);
    if (reach) {
      if (node.axis != kLeafAxis) {
        const bool left_near = centre[node.axis] < node.split;
        stack[top++] = left_near ? node.index : i + 1;
        i = left_near ? i + 1 : node.index;
        continue;
      }
      const uint32_t end = node.index + node.count;
      for (uint32_t lanes = reach; lanes; lanes &= lanes - 1) {
        const uint32_t l = uint32_t(lowest_bit32(lanes));
        const float x = q.x[l], y = q.y[l], z = q.z[l];
        uint64_t* best = &lists.best[size_t(l) * k];
        uint32_t& found = lists.found[l];
        float lim = limit[l];
        tested += node.count;
        for (uint32_t b = node.index; b < end; b += kLeafBatch) {
          const uint32_t n = std::min(kLeafBatch, end - b);
          for (uint32_t j = 0; j < n; ++j) d2[j] = distance2(px[b + j], py[b + j], pz[b + j], x, y, z);
          for (uint32_t within = points_within(d2, n, lim); within; within &= within - 1) {
            const uint32_t j = uint32_t(lowest_bit32(within));
            // Checked again: the limit shrinks as the list fills, after the mask was taken.
            if (d2[j] <= lim) lim = offer_neighbour(best, found, k, neighbour_key(d2[j], ids[b + j]), lim);
          }
        }
        limit[l] = lim;
        if (found == k) prune[l] = prune_bound(lim);
      }
    }
    if (top == 0) break;
    i = stack[--top];
  }
  scratch.points_tested += tested;
  scratch.nodes_visited += visited;

  for (uint32_t l = 0; l < q.count; ++l) {
    if (lists.found[l] < k) {
      // r0 held too few points (or rounding kept one out): the single search grows it.
      search_knn(tree, q.x[l], q.y[l], q.z[l], q.r0[l], k, scratch, indices[l], distances[l]);
      continue;
    }
    const uint64_t* best = &lists.best[size_t(l) * k];
    for (uint32_t j = 0; j < k; ++j) {
      indices[l][j] = key_index(best[j]);
      distances[l][j] = std::sqrt(key_distance2(best[j]));
    }
  }
}

}  // namespace meniscus::sim::kdtree
