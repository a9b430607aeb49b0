#pragma once
// The curvature term of Eq. 1, κ|∇φ| with κ = ∇·(∇φ/|∇φ|) (the sum of the principal
// curvatures), by central differences: it is parabolic, so it is not upwinded.
#include <cmath>

#include "sim/common/host_device.h"

namespace meniscus::sim::levelset {

// κ|∇φ| at p[0] of a block whose x, y, z neighbours lie 1, sy, sz apart; reads the 3^3
// neighbourhood. 0 where the gradient vanishes (a flat, clamped region has no curvature).
MENISCUS_HD inline float curvature_speed(const float* p, int sy, int sz) {
  const auto f = [&](int ox, int oy, int oz) { return p[ox + oy * sy + oz * sz]; };
  const float c = f(0, 0, 0);
  const float fx = 0.5f * (f(1, 0, 0) - f(-1, 0, 0));
  const float fy = 0.5f * (f(0, 1, 0) - f(0, -1, 0));
  const float fz = 0.5f * (f(0, 0, 1) - f(0, 0, -1));
  const float fxx = f(1, 0, 0) - 2 * c + f(-1, 0, 0);
  const float fyy = f(0, 1, 0) - 2 * c + f(0, -1, 0);
  const float fzz = f(0, 0, 1) - 2 * c + f(0, 0, -1);
  const float fxy = 0.25f * (f(1, 1, 0) - f(1, -1, 0) - f(-1, 1, 0) + f(-1, -1, 0));
  const float fxz = 0.25f * (f(1, 0, 1) - f(1, 0, -1) - f(-1, 0, 1) + f(-1, 0, -1));
  const float fyz = 0.25f * (f(0, 1, 1) - f(0, 1, -1) - f(0, -1, 1) + f(0, -1, -1));
  const float g2 = fx * fx + fy * fy + fz * fz;
  // κ|∇φ| = (φxx(φy²+φz²) + φyy(φx²+φz²) + φzz(φx²+φy²) − 2φxφyφxy − 2φxφzφxz − 2φyφzφyz) / |∇φ|²
  const float numerator = fxx * (fy * fy + fz * fz) + fyy * (fx * fx + fz * fz) + fzz * (fx * fx + fy * fy) -
                          2 * (fx * fy * fxy + fx * fz * fxz + fy * fz * fyz);
  return g2 > 1e-12f ? numerator / g2 : 0.0f;
}

}  // namespace meniscus::sim::levelset
