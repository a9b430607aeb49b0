#include "sim/reconstruct/barnes_hut.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <stdexcept>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

double BarnesHut::kernel(double d2) const {
  // d^(1-p) = (d²)^((1-p)/2); p = 3 is the paper's choice and needs no pow.
  return params_.p == 3.0f ? 1.0 / d2 : std::pow(d2, 0.5 * (1.0 - params_.p));
}

// Four points share each instruction (SSE2, the x86-64 baseline), with the arithmetic of one
// point alone in each lane: the same float distance and opening test, the same double kernel and
// sums in the same order, so every point gets bit for bit what the one-point form gives. A far
// node's weight goes to the lanes that take it; the others add +0, which changes no sum.
// Lanes beyond the group's points hold the origin and are never in a mask.
struct BarnesHut::Group {
  alignas(16) std::array<float, kGroupSize> x{}, y{}, z{};
  alignas(16) std::array<double, kGroupSize> value{}, gradient_x{}, gradient_y{}, gradient_z{};
};

namespace {

#if defined(__SSE2__)
// The two lanes of `bits` (bit 0: low) as a double mask.
__m128d lane_mask(unsigned bits) {
  return _mm_castsi128_pd(_mm_set_epi64x(-int64_t((bits >> 1) & 1u), -int64_t(bits & 1u)));
}
#endif

}  // namespace

template <bool kGradient>
uint64_t BarnesHut::add_pot(uint32_t n, Group& g, uint64_t mask) const {
  const OctreeNode& node = tree_.nodes()[n];
  if (node.count == 0) return 0;
  const float side = tree_.node_size(node.depth);
  const bool openable = node.children != 0 && node.depth < depth_limit_;
  uint64_t opening = 0;
#if defined(__SSE2__)
  const __m128 cx = _mm_set1_ps(node.centroid.x), cy = _mm_set1_ps(node.centroid.y), cz = _mm_set1_ps(node.centroid.z);
  const __m128 side2 = _mm_set1_ps(side * side), theta2 = _mm_set1_ps(theta2_);
  const __m128d epsilon2 = _mm_set1_pd(double(epsilon2_)), weight = _mm_set1_pd(double(node.weight));
  const __m128d slope = _mm_set1_pd(double(params_.p) - 1.0);
  for (int first = 0; first < kGroupSize; first += 4) {
    const unsigned lanes = unsigned(mask >> first) & 0xFu;
    if (!lanes) continue;
    const __m128 dx = _mm_sub_ps(_mm_load_ps(&g.x[first]), cx);
    const __m128 dy = _mm_sub_ps(_mm_load_ps(&g.y[first]), cy);
    const __m128 dz = _mm_sub_ps(_mm_load_ps(&g.z[first]), cz);
    const __m128 distance2 = _mm_add_ps(_mm_add_ps(_mm_mul_ps(dx, dx), _mm_mul_ps(dy, dy)), _mm_mul_ps(dz, dz));
    const unsigned open =
        openable ? unsigned(_mm_movemask_ps(_mm_cmpge_ps(side2, _mm_mul_ps(theta2, distance2)))) & lanes : 0u;
    opening |= uint64_t(open) << first;
    const unsigned far = lanes & ~open;
    if (!far) continue;
    for (int half = 0; half < 2; ++half) {
      const unsigned bits = (far >> (2 * half)) & 3u;
      if (!bits) continue;
      const int i = first + 2 * half;
      // The half's two lanes as doubles: shuffle the upper pair down for the second half.
      const auto wide = [half](__m128 v) { return _mm_cvtps_pd(half ? _mm_movehl_ps(v, v) : v); };
      const __m128d d2 = _mm_add_pd(wide(distance2), epsilon2);
      __m128d k;
      if (params_.p == 3.0f) {
        k = _mm_div_pd(_mm_set1_pd(1.0), d2);  // kernel() without a pow
      } else {
        alignas(16) double lane[2];
        _mm_store_pd(lane, d2);
        for (double& d : lane) d = kernel(d);
        k = _mm_load_pd(lane);
      }
      k = _mm_and_pd(_mm_mul_pd(weight, k), lane_mask(bits));
      _mm_store_pd(&g.value[i], _mm_add_pd(_mm_load_pd(&g.value[i]), k));
      if constexpr (kGradient) {
        // ∇ (d² + ε²)^((1-p)/2) = (1 - p) (d² + ε²)^(-1) (d² + ε²)^((1-p)/2) (x - c).
        const __m128d s = _mm_div_pd(_mm_mul_pd(slope, k), d2);
        const __m128 minus = _mm_set1_ps(-0.0f);
        _mm_store_pd(&g.gradient_x[i],
                     _mm_add_pd(_mm_load_pd(&g.gradient_x[i]), _mm_mul_pd(s, wide(_mm_xor_ps(dx, minus)))));
        _mm_store_pd(&g.gradient_y[i],
                     _mm_add_pd(_mm_load_pd(&g.gradient_y[i]), _mm_mul_pd(s, wide(_mm_xor_ps(dy, minus)))));
        _mm_store_pd(&g.gradient_z[i],
                     _mm_add_pd(_mm_load_pd(&g.gradient_z[i]), _mm_mul_pd(s, wide(_mm_xor_ps(dz, minus)))));
      }
    }
  }
#else
  for (; mask; mask &= mask - 1) {
    const int i = std::countr_zero(mask);
    const glm::vec3 d = glm::vec3(g.x[i], g.y[i], g.z[i]) - node.centroid;
    const float distance2 = glm::dot(d, d);
    if (openable && side * side >= theta2_ * distance2) {
      opening |= uint64_t(1) << i;
      continue;
    }
    const double d2 = double(distance2) + epsilon2_;
    const double k = double(node.weight) * kernel(d2);
    g.value[i] += k;
    if constexpr (kGradient) {
      const double s = (double(params_.p) - 1.0) * k / d2;
      g.gradient_x[i] += s * double(-d.x);
      g.gradient_y[i] += s * double(-d.y);
      g.gradient_z[i] += s * double(-d.z);
    }
  }
#endif
  return opening;
}

template <bool kGradient>
uint64_t BarnesHut::walk(Group& g, int count) const {
  const std::vector<OctreeNode>& nodes = tree_.nodes();
  // reaching[k]: the points whose walks reach the nodes of depth k now being visited, i.e. that
  // opened their parent. Siblings share a parent, so one mask per depth is the walk's whole stack.
  std::array<uint64_t, kMaxOctreeDepth + 2> reaching;
  reaching[0] = count == kGroupSize ? ~uint64_t(0) : (uint64_t(1) << count) - 1;
  uint64_t visited = uint64_t(count);
  reaching[1] = add_pot<kGradient>(0, g, reaching[0]);
  if (!reaching[1]) return visited;
  uint32_t n = nodes[0].children;
  for (;;) {
    const int depth = nodes[n].depth;
    visited += uint64_t(std::popcount(reaching[depth]));
    if (const uint64_t opening = add_pot<kGradient>(n, g, reaching[depth])) {  // near: down to the first child
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

BarnesHut::Group BarnesHut::group_of(std::span<const glm::vec3> x) {
  Group g;
  for (size_t i = 0; i < x.size(); ++i) g.x[i] = x[i].x, g.y[i] = x[i].y, g.z[i] = x[i].z;
  return g;
}

void BarnesHut::sample_group(std::span<const glm::vec3> x, std::span<PotentialSample> out,
                             PotentialCounters* counters) const {
  check_group(x.size(), out.size());
  Group g = group_of(x);
  const uint64_t visited = walk<true>(g, int(x.size()));
  if (counters) counters->nodes_visited += visited;
  for (size_t i = 0; i < x.size(); ++i)
    out[i] = {g.value[i], glm::dvec3(g.gradient_x[i], g.gradient_y[i], g.gradient_z[i])};
}

void BarnesHut::potential_group(std::span<const glm::vec3> x, std::span<float> out, PotentialCounters* counters) const {
  check_group(x.size(), out.size());
  Group g = group_of(x);
  const uint64_t visited = walk<false>(g, int(x.size()));
  if (counters) counters->nodes_visited += visited;
  for (size_t i = 0; i < x.size(); ++i) out[i] = float(g.value[i]);
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
