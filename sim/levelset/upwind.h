#pragma once
// Upwinded gradients for the hyperbolic terms of Eq. 1 (Osher & Fedkiw §6.1 and §6.4): the
// advection term U·∇φ takes, per axis, the one-sided derivative on the side the flow comes
// from; the normal-speed term F|∇φ| and the reinitialisation term S(φ)(|∇φ| − 1) take
// Godunov's |∇φ| for the sign of their speed.
#include <algorithm>

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

// Godunov's |∇φ| for φ_t + s|∇φ| = 0: information travels along +∇φ when s > 0.
MENISCUS_HD inline float godunov_norm(const OneSidedGradient& g, float s) {
  float sum = 0;
  for (int a = 0; a < 3; ++a) {
    const float m = g.minus[a], p = g.plus[a];
    const float lo = s > 0 ? std::max(m, 0.0f) : std::min(m, 0.0f);
    const float hi = s > 0 ? std::min(p, 0.0f) : std::max(p, 0.0f);
    sum += std::max(lo * lo, hi * hi);
  }
  return std::sqrt(sum);
}

// The CFL speed of the normal-speed term F|∇φ| as Osher & Fedkiw's effective velocity F∇φ/|∇φ|
// (§6.1, §6.4): |F| (|φx| + |φy| + |φz|) / |∇φ| with Godunov's one-sided derivatives, at most
// √3|F| (a front diagonal to the axes) and 0 where nothing upwind differs, so no step there.
MENISCUS_HD inline float effective_normal_cfl_speed(const OneSidedGradient& g, float s) {
  float sum = 0, sum_abs = 0;
  for (int a = 0; a < 3; ++a) {
    const float m = g.minus[a], p = g.plus[a];
    const float lo = s > 0 ? std::max(m, 0.0f) : std::min(m, 0.0f);
    const float hi = s > 0 ? std::min(p, 0.0f) : std::max(p, 0.0f);
    const float d = std::max(std::abs(lo), std::abs(hi));
    sum += d * d;
    sum_abs += d;
  }
  return sum > 0 ? std::abs(s) * sum_abs / std::sqrt(sum) : 0.0f;
}

// ∇φ upwinded against the velocity u (backward where u > 0, forward where u < 0).
MENISCUS_HD inline glm::vec3 upwind_gradient(const OneSidedGradient& g, glm::vec3 u) {
  return {u.x > 0 ? g.minus.x : g.plus.x, u.y > 0 ? g.minus.y : g.plus.y, u.z > 0 ? g.minus.z : g.plus.z};
}

}  // namespace meniscus::sim::levelset
