#pragma once
// Initial KNN radius estimation (Zhou et al. 2008, Appendix A, Algorithm 7), internal to
// sim/kdtree. PRECOMPUTERADIUS runs a KNN search at the box centre C_i of the topmost nodes
// smaller than alpha R and of their descendants for n_level levels; ESTIMATERADIUS then bounds a
// query's k-th distance by min(R, |p - C_i| + R_i) over the nodes on its path: the ball of radius
// R_i around C_i holds k points, and so does the ball of radius |p - C_i| + R_i around p.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "sim/kdtree/knn.h"

namespace meniscus::sim::kdtree {

struct RadiusTable {
  float radius = 0.0f;              // R, made conservative (see precompute_radii)
  std::vector<float> node_radius;   // R_i per preorder node, +inf where none was computed
  std::vector<float> node_centre;   // C_i, three floats per node
  uint32_t computed = 0;
};

RadiusTable precompute_radii(const KdTree& tree, uint32_t k, const KnnParams& params);

// ESTIMATERADIUS, except that it returns +inf where no node on the path has a radius, so that the
// caller decides what to fall back to (the conservative R).
inline float estimate_radius(const KdTree& tree, const RadiusTable& table, float x, float y, float z) {
  float r = std::numeric_limits<float>::infinity();
  uint32_t i = 0;
  for (;;) {
    const float ri = table.node_radius[i];
    if (ri < r) {
      const float* c = &table.node_centre[3 * size_t(i)];
      r = std::min(r, std::sqrt(distance2(x, y, z, c[0], c[1], c[2])) + ri);
    }
    const KdNode& node = tree.nodes[i];
    if (node.axis == kLeafAxis) return r;
    const float q = node.axis == 0 ? x : (node.axis == 1 ? y : z);
    i = q < node.split ? i + 1 : node.index;
  }
}

// holding_k_radius (kdtree_rules.h) over the tree: +inf when it holds fewer than k. The tree's
// own points keep the conservative R where ESTIMATERADIUS has no bound, a tighter start among
// the points.
inline float holding_k_radius(const KdTree& tree, uint32_t k, float x, float y, float z) {
  return holding_k_radius(tree.nodes.data(), k, x, y, z, std::numeric_limits<float>::infinity());
}

}  // namespace meniscus::sim::kdtree
