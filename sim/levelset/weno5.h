#pragma once
// Fifth-order Hamilton–Jacobi WENO one-sided derivatives (Jiang & Peng 2000; Osher & Fedkiw,
// "Level Set Methods and Dynamic Implicit Surfaces", §3.4) on a unit grid. Of the three
// third-order ENO candidates, each is weighted by its smoothness so that across a kink —
// including the kink where φ is clamped to ±γ at the edge of the narrow band — the stencils
// that straddle it get almost no weight.
#include <algorithm>

#include "sim/common/host_device.h"

namespace meniscus::sim::levelset {

// The WENO combination of the five divided differences v1..v5 (v3 nearest the point on the
// upwind side). F is float, or Float4 (sim/common/float4.h) for four voxels at once, which
// rounds each lane as the float version does.
template <class F>
[[gnu::always_inline]] MENISCUS_HD inline F weno5(F v1, F v2, F v3, F v4, F v5) {
  using std::max;
  const F p1 = v1 / 3.0f - 7.0f / 6.0f * v2 + 11.0f / 6.0f * v3;
  const F p2 = -v2 / 6.0f + 5.0f / 6.0f * v3 + v4 / 3.0f;
  const F p3 = v3 / 3.0f + 5.0f / 6.0f * v4 - v5 / 6.0f;
  const F a = v1 - 2.0f * v2 + v3, b = v1 - 4.0f * v2 + 3.0f * v3;
  const F c = v2 - 2.0f * v3 + v4, d = v2 - v4;
  const F e = v3 - 2.0f * v4 + v5, f = 3.0f * v3 - 4.0f * v4 + v5;
  const F s1 = 13.0f / 12.0f * a * a + 0.25f * b * b;
  const F s2 = 13.0f / 12.0f * c * c + 0.25f * d * d;
  const F s3 = 13.0f / 12.0f * e * e + 0.25f * f * f;
  // Osher & Fedkiw's ε scales with the data, so the weights stay scale invariant. The floor
  // is for flat regions (all v = 0, as where φ is clamped to ±γ): its square must stay a
  // normal float, or 0.6 / ε² overflows and the weights become inf / inf.
  const F eps = 1e-6f * max(max(max(v1 * v1, v2 * v2), max(v3 * v3, v4 * v4)), v5 * v5) + 1e-10f;
  const F a1 = 0.1f / ((s1 + eps) * (s1 + eps));
  const F a2 = 0.6f / ((s2 + eps) * (s2 + eps));
  const F a3 = 0.3f / ((s3 + eps) * (s3 + eps));
  return (a1 * p1 + a2 * p2 + a3 * p3) / (a1 + a2 + a3);
}

struct OneSided {
  float minus;  // φ_x^- (backward biased)
  float plus;   // φ_x^+ (forward biased)
};

// The backward-biased derivative at p[0] along the axis whose neighbours are p[±stride];
// reads p[-3 stride] .. p[2 stride].
MENISCUS_HD inline float weno5_minus(const float* p, int s) {
  return weno5<float>(p[-2 * s] - p[-3 * s], p[-s] - p[-2 * s], p[0] - p[-s], p[s] - p[0], p[2 * s] - p[s]);
}

// The forward-biased one; reads p[-2 stride] .. p[3 stride].
MENISCUS_HD inline float weno5_plus(const float* p, int s) {
  return weno5<float>(p[3 * s] - p[2 * s], p[2 * s] - p[s], p[s] - p[0], p[0] - p[-s], p[-s] - p[-2 * s]);
}

// Both one-sided derivatives; reads p[-3 stride] .. p[3 stride].
MENISCUS_HD inline OneSided weno5_derivatives(const float* p, int s) { return {weno5_minus(p, s), weno5_plus(p, s)}; }

// First-order one-sided differences; reads p[-stride] .. p[stride].
MENISCUS_HD inline OneSided first_order_derivatives(const float* p, int s) { return {p[0] - p[-s], p[s] - p[0]}; }

}  // namespace meniscus::sim::levelset
