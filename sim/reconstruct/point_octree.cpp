#include "sim/reconstruct/point_octree.h"

#include <tbb/parallel_sort.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

#include <glm/glm.hpp>

namespace meniscus::sim::reconstruct {
namespace {

// Spreads the low 21 bits of v three apart (bit i goes to bit 3i).
uint64_t spread_bits(uint64_t v) {
  v &= 0x1fffff;
  v = (v | v << 32) & 0x1f00000000ffffULL;
  v = (v | v << 16) & 0x1f0000ff0000ffULL;
  v = (v | v << 8) & 0x100f00f00f00f00fULL;
  v = (v | v << 4) & 0x10c30c30c30c30c3ULL;
  v = (v | v << 2) & 0x1249249249249249ULL;
  return v;
}

struct Coded {
  uint64_t code;
  glm::vec3 point;
  float weight;
};

}  // namespace

PointOctree::PointOctree(std::span<const glm::vec3> points, int max_depth, std::span<const float> weights)
    : max_depth_(max_depth) {
  if (max_depth < 1 || max_depth > kMaxOctreeDepth)
    throw std::invalid_argument("PointOctree: depth must be in [1, " + std::to_string(kMaxOctreeDepth) + "]");
  if (!weights.empty() && weights.size() != points.size())
    throw std::invalid_argument("PointOctree: one weight per point, or none");
  for (const float w : weights)
    if (!(w > 0.0f) || !std::isfinite(w)) throw std::invalid_argument("PointOctree: weights must be positive and finite");
  const auto start = std::chrono::steady_clock::now();
  // Sorting by the Morton code of each sample's depth-D leaf puts every node's samples in one
  // contiguous run, and a node's 8 children in 8 consecutive sub-runs: the tree is built top
  // down by splitting runs, with no per-sample insertion.
  const int cells = 1 << max_depth;
  std::vector<Coded> sorted(points.size());
  for (size_t i = 0; i < points.size(); ++i) {
    const glm::ivec3 q = glm::clamp(glm::ivec3(glm::floor(points[i])), glm::ivec3(0), glm::ivec3(cells - 1));
    sorted[i] = {spread_bits(uint64_t(q.x)) | spread_bits(uint64_t(q.y)) << 1 | spread_bits(uint64_t(q.z)) << 2, points[i],
                 weights.empty() ? 1.0f : weights[i]};
  }
  tbb::parallel_sort(sorted.begin(), sorted.end(), [](const Coded& a, const Coded& b) { return a.code < b.code; });

  struct Run {
    size_t begin, end;
  };
  std::vector<Run> runs;  // runs[i]: the samples of nodes_[i]
  nodes_.push_back({});
  runs.push_back({0, sorted.size()});
  // Breadth first: nodes_ grows behind the cursor, 8 children at a time.
  for (size_t n = 0; n < nodes_.size(); ++n) {
    const Run run = runs[n];
    const int depth = nodes_[n].depth;
    glm::dvec3 sum(0.0);
    double weight = 0.0;
    for (size_t i = run.begin; i < run.end; ++i) {
      sum += double(sorted[i].weight) * glm::dvec3(sorted[i].point);
      weight += sorted[i].weight;
    }
    const size_t count = run.end - run.begin;
    nodes_[n].count = uint32_t(count);
    nodes_[n].weight = float(weight);
    // The exact (weighted) mean of a merged leaf, where the paper replaces pairs by their
    // centroid one insertion at a time (which weighs later samples more): the count is kept
    // either way.
    if (count) nodes_[n].centroid = glm::vec3(sum / weight);
    if (count <= 1 || depth == max_depth) {
      ++leaves_;
      if (count > 1) ++merged_leaves_;
      continue;
    }
    const uint32_t first = uint32_t(nodes_.size());
    nodes_[n].children = first;
    const int shift = 3 * (max_depth - depth - 1);
    size_t begin = run.begin;
    for (uint32_t c = 0; c < 8; ++c) {
      // The run is sorted, so child c's samples are those whose 3 bits at this level are <= c.
      const size_t end = size_t(std::partition_point(sorted.begin() + begin, sorted.begin() + run.end,
                                                     [&](const Coded& s) { return ((s.code >> shift) & 7) <= c; }) -
                                sorted.begin());
      OctreeNode child;
      child.parent = uint32_t(n);
      child.child_index = uint8_t(c);
      child.depth = uint8_t(depth + 1);
      nodes_.push_back(child);
      runs.push_back({begin, end});
      begin = end;
    }
  }
  build_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace meniscus::sim::reconstruct
