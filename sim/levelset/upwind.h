#pragma once
// Upwinded gradients for the hyperbolic terms of Eq. 1 (Osher & Fedkiw §6.1 and §6.4): the
// advection term U·∇φ takes, per axis, the one-sided derivative on the side the flow comes
// from; the normal-speed term F|∇φ| and the reinitialisation term S(φ)(|∇φ| − 1) take
// Godunov's |∇φ| for the sign of their speed.
#include <algorithm>
#include <cmath>

#include <glm/glm.hpp>

#include "sim/common/host_device.h"
#include "sim/levelset/weno5.h"

namespace meniscus::sim::levelset {

enum class Scheme {
  kUpwind,  // first-order one-sided differences, forward Euler in time
  kWeno5,   // HJ-WENO5, TVD-RK3 in time
};

// Voxels of stencil each side that a scheme reads along an axis.
MENISCUS_HD inline constexpr int stencil_reach(Scheme s) { return s == Scheme::kWeno5 ? 3 : 1; }

struct OneSidedGradient {
  glm::vec3 minus, plus;
};

// One-sided derivatives at p[0] of a block whose x, y, z neighbours lie 1, sy, sz apart.
MENISCUS_HD inline OneSidedGradient one_sided_gradient(Scheme scheme, const float* p, int sy, int sz) {
  const auto along = [&](int s) { return scheme == Scheme::kWeno5 ? weno5_derivatives(p, s) : first_order_derivatives(p, s); };
  const OneSided x = along(1), y = along(sy), z = along(sz);
  return {{x.minus, y.minus, z.minus}, {x.plus, y.plus, z.plus}};
}

// A lane's choice in the formulas below that are templates over float and Float4
// (sim/common/float4.h): a float chooses by a bool, Float4 by a lane mask (its own choose).
MENISCUS_HD inline float choose(bool first, float a, float b) { return first ? a : b; }

// Godunov's one-sided derivative along one axis for φ_t + s|∇φ| = 0 (information travels
// along +∇φ when s > 0), as a magnitude: the larger of the admissible sides.
template <class F>
MENISCUS_HD inline F godunov_axis(F minus, F plus, F s) {
  using std::abs;
  using std::max;
  using std::min;
  const auto rightwards = s > 0.0f;
  const F lo = choose(rightwards, max(minus, 0.0f), min(minus, 0.0f));
  const F hi = choose(rightwards, min(plus, 0.0f), max(plus, 0.0f));
  return max(abs(lo), abs(hi));
}

// Godunov's |∇φ| for speed s from the one-sided derivatives along x, y, z. The sum starts from
// the first square: equal to 0 + d² (godunov_normal's form), since d² is never -0.
template <class F>
MENISCUS_HD inline F godunov_norm(const F minus[3], const F plus[3], F s) {
  using std::sqrt;
  F sum = godunov_axis(minus[0], plus[0], s);
  sum = sum * sum;
  for (int a = 1; a < 3; ++a) {
    const F d = godunov_axis(minus[a], plus[a], s);
    sum = sum + d * d;
  }
  return sqrt(sum);
}

// The reinitialisation PDE's rate (reinitialise.h): S(φ0)(1 − |∇φ|) with the smoothed sign
// S(φ0) = φ0 / sqrt(φ0² + 1) and Godunov's |∇φ| for it; one text for both backends, and for
// four voxels at a time on the CPU.
template <class F>
MENISCUS_HD inline F reinit_rate(const F minus[3], const F plus[3], F phi0) {
  using std::sqrt;
  const F s = phi0 / sqrt(phi0 * phi0 + 1.0f);
  return s * (1.0f - godunov_norm(minus, plus, s));
}

// The same at p[0] of a block whose x, y, z neighbours lie 1, sy, sz apart.
MENISCUS_HD inline float reinit_rate(Scheme scheme, const float* p, int sy, int sz, float phi0) {
  const OneSidedGradient g = one_sided_gradient(scheme, p, sy, sz);
  const float minus[3] = {g.minus.x, g.minus.y, g.minus.z}, plus[3] = {g.plus.x, g.plus.y, g.plus.z};
  return reinit_rate(minus, plus, phi0);
}

// Godunov's |∇φ| and the CFL speed of the normal-speed term F|∇φ| as Osher & Fedkiw's effective
// velocity F∇φ/|∇φ| (§6.1, §6.4): |F| (|φx| + |φy| + |φz|) / |∇φ| with the same one-sided
// derivatives, at most √3|F| (a front diagonal to the axes) and 0 where nothing upwind differs,
// so no step there. Together because the rate kernels need both at every band voxel.
struct GodunovNormal {
  float norm, cfl_speed;
};

MENISCUS_HD inline GodunovNormal godunov_normal(const OneSidedGradient& g, float s) {
  float sum = 0, sum_abs = 0;
  for (int a = 0; a < 3; ++a) {
    const float d = godunov_axis(g.minus[a], g.plus[a], s);
    sum += d * d;
    sum_abs += d;
  }
  const float norm = std::sqrt(sum);
  return {norm, sum > 0 ? std::abs(s) * sum_abs / norm : 0.0f};
}

// Whether φ is ±γ at p[0] and across every sample a rate stencil of this reach reads (the same
// test for a row of four voxels: flat_lanes in advection_rows.cpp): the six
// faces and twelve edges of the 3^3 neighbourhood (curvature's mixed differences use no
// corner) and the axes as far as the upwind stencil reaches. No term's differences are nonzero
// there, and the rescaling term only pushes φ further past ±γ, where the clamp returns it.
MENISCUS_HD inline bool flat_beyond_band(const float* p, int sy, int sz, int reach, float gamma) {
  const float c = p[0];
  if (std::abs(c) != gamma) return false;
  const int axes[3] = {1, sy, sz};
  for (int k = 1; k <= reach; ++k)
    for (const int s : axes)
      if (p[k * s] != c || p[-k * s] != c) return false;
  for (int a = 0; a < 3; ++a)
    for (int b = a + 1; b < 3; ++b) {
      const int u = axes[a], v = axes[b];
      if (p[u + v] != c || p[u - v] != c || p[-u + v] != c || p[-u - v] != c) return false;
    }
  return true;
}

// ∇φ upwinded against the velocity u (backward where u > 0, forward where u < 0).
MENISCUS_HD inline glm::vec3 upwind_gradient(const OneSidedGradient& g, glm::vec3 u) {
  return {u.x > 0 ? g.minus.x : g.plus.x, u.y > 0 ? g.minus.y : g.plus.y, u.z > 0 ? g.minus.z : g.plus.z};
}

// The same from the block, computing per axis only the side the flow comes from: half the
// WENO work of one_sided_gradient, for rates with no Godunov term that needs both sides.
MENISCUS_HD inline glm::vec3 upwind_gradient(Scheme scheme, const float* p, int sy, int sz, glm::vec3 u) {
  const auto side = [&](int s, float velocity) {
    if (scheme == Scheme::kWeno5) return velocity > 0 ? weno5_minus(p, s) : weno5_plus(p, s);
    const OneSided d = first_order_derivatives(p, s);
    return velocity > 0 ? d.minus : d.plus;
  };
  return {side(1, u.x), side(sy, u.y), side(sz, u.z)};
}

}  // namespace meniscus::sim::levelset
