#include "sim/reconstruct/barnes_hut.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <stdexcept>

#include <glm/glm.hpp>

namespace meniscus::sim::reconstruct {

BarnesHut::BarnesHut(const PointOctree& tree, PotentialParams params)
    : tree_(tree),
      params_(params),
      epsilon2_(params.epsilon * params.epsilon),
      theta2_(params.theta * params.theta),
      depth_limit_(std::min(params.max_depth, tree.max_depth())) {
  if (!(params.p > 1.0f)) throw std::invalid_argument("BarnesHut: p must exceed 1 (P is then finite and V its gradient)");
  if (!(params.epsilon > 0.0f)) throw std::invalid_argument("BarnesHut: epsilon must be positive");
  if (!(params.theta >= 0.0f)) throw std::invalid_argument("BarnesHut: theta must be >= 0");
}

double BarnesHut::kernel(float distance2) const {
  const double d2 = double(distance2) + epsilon2_;
  // d^(1-p) = (d²)^((1-p)/2); p = 3 is the paper's choice and needs no pow.
  return params_.p == 3.0f ? 1.0 / d2 : std::pow(d2, 0.5 * (1.0 - params_.p));
}

template <bool kGradient>
uint64_t BarnesHut::add_pot(uint32_t n, const glm::vec3* x, uint64_t mask, PotentialSample* P) const {
  const OctreeNode& node = tree_.nodes()[n];
  if (node.count == 0) return 0;
  const float side = tree_.node_size(node.depth);
  const bool openable = node.children != 0 && node.depth < depth_limit_;
  uint64_t opening = 0;
  for (; mask; mask &= mask - 1) {
    const int i = std::countr_zero(mask);
    const glm::vec3 d = x[i] - node.centroid;
    const float distance2 = glm::dot(d, d);
    if (openable && side * side >= theta2_ * distance2) {
      opening |= uint64_t(1) << i;
      continue;
    }
    const double k = double(node.weight) * kernel(distance2);
    P[i].value += k;
    if constexpr (kGradient) {
      // ∇ (d² + ε²)^((1-p)/2) = (1 - p) (d² + ε²)^(-1) (d² + ε²)^((1-p)/2) (x - c).
      P[i].gradient += (double(params_.p) - 1.0) * k / (double(distance2) + epsilon2_) * glm::dvec3(-d);
    }
  }
  return opening;
}

template <bool kGradient>
uint64_t BarnesHut::walk(const glm::vec3* x, int count, PotentialSample* P) const {
  const std::vector<OctreeNode>& nodes = tree_.nodes();
  // reaching[k]: the points whose walks reach the nodes of depth k now being visited, i.e. that
  // opened their parent. Siblings share a parent, so one mask per depth is the walk's whole stack.
  std::array<uint64_t, kMaxOctreeDepth + 2> reaching;
  reaching[0] = count == kGroupSize ? ~uint64_t(0) : (uint64_t(1) << count) - 1;
  uint64_t visited = uint64_t(count);
  reaching[1] = add_pot<kGradient>(0, x, reaching[0], P);
  if (!reaching[1]) return visited;
  uint32_t n = nodes[0].children;
  for (;;) {
    const int depth = nodes[n].depth;
    visited += uint64_t(std::popcount(reaching[depth]));
    if (const uint64_t opening = add_pot<kGradient>(n, x, reaching[depth], P)) {  // near: down to the first child
      reaching[depth + 1] = opening;
      n = nodes[n].children;
      continue;
    }
    // Up while n is the last of its siblings; back at the root, every node has been seen.
    while (nodes[n].child_index == 7) {
      n = nodes[n].parent;
      if (n == 0) return visited;
    }
    ++n;  // the next sibling: children are consecutive
  }
}

float BarnesHut::potential(glm::vec3 x, PotentialCounters* counters) const {
  float P = 0.0f;
  potential_group(std::span(&x, 1), std::span(&P, 1), counters);
  return P;
}

PotentialSample BarnesHut::sample(glm::vec3 x, PotentialCounters* counters) const {
  PotentialSample P;
  sample_group(std::span(&x, 1), std::span(&P, 1), counters);
  return P;
}

void BarnesHut::check_group(size_t points, size_t results) {
  if (points > size_t(kGroupSize) || results != points)
    throw std::invalid_argument("BarnesHut: a group walk takes at most 64 points, with one result each");
}

void BarnesHut::sample_group(std::span<const glm::vec3> x, std::span<PotentialSample> out,
                             PotentialCounters* counters) const {
  check_group(x.size(), out.size());
  std::fill(out.begin(), out.end(), PotentialSample{});
  const uint64_t visited = walk<true>(x.data(), int(x.size()), out.data());
  if (counters) counters->nodes_visited += visited;
}

void BarnesHut::potential_group(std::span<const glm::vec3> x, std::span<float> out, PotentialCounters* counters) const {
  check_group(x.size(), out.size());
  std::array<PotentialSample, kGroupSize> P{};
  const uint64_t visited = walk<false>(x.data(), int(x.size()), P.data());
  if (counters) counters->nodes_visited += visited;
  for (size_t i = 0; i < x.size(); ++i) out[i] = float(P[i].value);
}

double BarnesHut::direct_potential(std::span<const glm::vec3> points, glm::vec3 x, const PotentialParams& params,
                                   std::span<const float> weights) {
  double P = 0.0;
  const double e2 = double(params.epsilon) * params.epsilon;
  for (size_t i = 0; i < points.size(); ++i) {
    const glm::dvec3 d = glm::dvec3(x) - glm::dvec3(points[i]);
    P += (weights.empty() ? 1.0 : double(weights[i])) * std::pow(glm::dot(d, d) + e2, 0.5 * (1.0 - double(params.p)));
  }
  return P;
}

}  // namespace meniscus::sim::reconstruct
