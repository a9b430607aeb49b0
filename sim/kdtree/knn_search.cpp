// Algorithm 6 on the CPU. The GPU version re-runs the range search in every round because a
// thread cannot hold the points it found; a CPU thread can, so here the first range search keeps
// its candidates (distance, slot) and the histogram rounds and the final "all points within r_k"
// read them instead of walking the tree again: the same radii and the same answer, one walk.
#include "sim/kdtree/knn_search.h"

#include <algorithm>
#include <cmath>

namespace meniscus::sim::kdtree {
namespace {

// Pruning and membership use r^2 widened by a few float steps: a distance near r may round
// either way, and keeping it is never wrong (the final selection is exact).
float widened(float r) { return r * r * (1.0f + 1e-5f) + 1e-37f; }

void range_search(const KdTree& tree, float x, float y, float z, float r2, SearchScratch& scratch) {
  const KdNode* nodes = tree.nodes.data();
  const float *px = tree.x.data(), *py = tree.y.data(), *pz = tree.z.data();
  uint32_t* stack = scratch.stack.data();
  auto& out = scratch.candidates;
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    uint32_t i = stack[--top];
    for (;;) {  // descend, pushing the far child, until a leaf or a box outside the ball
      const KdNode& node = nodes[i];
      if (box_distance2(node.lo, node.hi, x, y, z) > r2) break;
      if (node.axis != kLeafAxis) {
        stack[top++] = node.index;
        i = i + 1;
        continue;
      }
      const uint32_t end = node.index + node.count;
      for (uint32_t p = node.index; p < end; ++p) {
        const float d2 = distance2(px[p], py[p], pz[p], x, y, z);
        if (d2 <= r2) out.push_back({d2, p});
      }
      break;
    }
  }
}

// Squared distance from (x, y, z) to the farthest corner of the root box: a radius beyond it
// holds every point.
float farthest2(const KdNode& root, float x, float y, float z) {
  float d2 = 0.0f;
  const float q[3] = {x, y, z};
  for (int a = 0; a < 3; ++a) {
    const float d = std::max(std::abs(q[a] - root.lo[a]), std::abs(q[a] - root.hi[a]));
    d2 += d * d;
  }
  return d2;
}

}  // namespace

float search_knn(const KdTree& tree, float x, float y, float z, float r0, const QueryConfig& config,
                 SearchScratch& scratch, uint32_t* indices, float* distances) {
  const uint32_t k = config.k;
  auto& candidates = scratch.candidates;
  const KdNode& root = tree.nodes[0];
  float r = std::max(r0, 0.0f);
  for (;;) {
    candidates.clear();
    range_search(tree, x, y, z, widened(r), scratch);
    if (candidates.size() >= k) break;
    const float far2 = farthest2(root, x, y, z);
    if (widened(r) >= far2) break;  // every point is inside: fewer than k in the tree
    // r0 held too few points: grow it, at least to reach the points' box.
    ++scratch.retries;
    const float diagonal = std::sqrt(distance2(root.lo[0], root.lo[1], root.lo[2], root.hi[0], root.hi[1], root.hi[2]));
    const float reach = std::sqrt(box_distance2(root.lo, root.hi, x, y, z)) + 1e-3f * diagonal;
    r = std::max({2.0f * r, reach, 1e-30f});
    if (r * r > far2) r = std::sqrt(far2) * (1.0f + 1e-6f);
  }
  scratch.candidate_count += candidates.size();

  // Histogram rounds: narrow [r_min, r_max] to the bin that holds the k-th distance.
  float r_min = 0.0f, r_max = r;
  if (candidates.size() > k) {
    uint32_t histogram[kMaxHistogramBins];
    for (uint32_t round = 0; round < config.iterations; ++round) {
      const float delta = r_max - r_min;
      if (!(delta > 0.0f)) break;
      std::fill(histogram, histogram + config.bins, 0u);
      const float scale = float(config.bins) / delta;
      for (const Candidate& c : candidates) {
        const float d = std::sqrt(c.d2);
        if (d > r_max) continue;
        const uint32_t bin = uint32_t(std::max(d - r_min, 0.0f) * scale);
        ++histogram[std::min(bin, config.bins - 1)];
      }
      uint32_t sum = 0, j = 0;
      for (; j < config.bins; ++j) {
        sum += histogram[j];
        if (sum >= k) break;
      }
      if (j == config.bins) break;  // rounding left fewer than k inside r_max: keep it
      const float low = r_min + delta * float(j) / float(config.bins);
      r_max = r_min + delta * float(j + 1) / float(config.bins);
      r_min = low;
    }
  }

  // The points within r_k; the k nearest of them are the k nearest of all.
  auto& selected = scratch.selected;
  selected.clear();
  const float r2 = widened(r_max);
  for (const Candidate& c : candidates)
    if (c.d2 <= r2) selected.push_back(c);
  if (selected.size() < k) selected = candidates;
  const uint32_t* ids = tree.ids.data();
  const uint32_t take = std::min<uint32_t>(k, uint32_t(selected.size()));
  std::partial_sort(selected.begin(), selected.begin() + take, selected.end(), [ids](const Candidate& a, const Candidate& b) {
    return a.d2 < b.d2 || (a.d2 == b.d2 && ids[a.slot] < ids[b.slot]);
  });
  scratch.last_slots.resize(take);
  for (uint32_t j = 0; j < take; ++j) {
    scratch.last_slots[j] = selected[j].slot;
    indices[j] = ids[selected[j].slot];
    distances[j] = std::sqrt(selected[j].d2);
  }
  return take > 0 ? distances[take - 1] : 0.0f;
}

}  // namespace meniscus::sim::kdtree
