#include "sim/sph/sph_pair_terms_sse.h"

#include <cstring>

#include <immintrin.h>

#include "sim/sph/sph_sse_lanes.h"

namespace meniscus::sim::sph {
namespace {

// Far enough that a padding lane falls outside any support.
constexpr float kFarOffset = 1e18f;

// One group of up to four pairs: their kernel values and their volume-weighted gradients, as
// kernel_w_and_grad and the scalar loop compute them.
struct PairLanes {
  float w[kLanes], gx[kLanes], gy[kLanes], gz[kLanes];
};

inline __attribute__((always_inline)) PairLanes pair_lanes(const Kernel& k, Lanes dx, Lanes dy, Lanes dz,
                                                           Lanes volume) {
  const Lanes r = Lanes(_mm_sqrt_ps(__m128(dx * dx + dy * dy + dz * dz)));
  const Lanes q = r / splat(k.h);
  const Lanes one = splat(1.0f);
  const Lanes a = one - q;
  // Both pieces of the spline in every lane, then a choice per lane: no branch to mispredict.
  const LaneMask inner = q <= splat(0.5f);
  const Lanes w_inner = splat(k.w_norm) * (splat(6.0f) * q * q * (q - one) + one);
  const Lanes g_inner = splat(k.g_norm) * q * (splat(3.0f) * q - splat(2.0f));
  const Lanes w_outer = splat(k.w_norm) * splat(2.0f) * a * a * a;
  const Lanes g_outer = splat(-k.g_norm) * a * a;
  const LaneMask inside = q <= one;
  const Lanes w = inside ? (inner ? w_inner : w_outer) : splat(0.0f);
  const Lanes g = inner ? g_inner : g_outer;
  // Zero gradients are chosen, not computed (0 * -d would be -0, and not bit-identical).
  const LaneMask has_gradient = inside & (r > splat(1e-9f));
  const Lanes s = g / (r * splat(k.h)), zero = splat(0.0f);
  PairLanes out;
  const Lanes gx = has_gradient ? volume * (s * dx) : zero;
  const Lanes gy = has_gradient ? volume * (s * dy) : zero;
  const Lanes gz = has_gradient ? volume * (s * dz) : zero;
  std::memcpy(out.w, &w, sizeof(out.w));
  std::memcpy(out.gx, &gx, sizeof(out.gx));
  std::memcpy(out.gy, &gy, sizeof(out.gy));
  std::memcpy(out.gz, &gz, sizeof(out.gz));
  return out;
}

// The pairs of one list (fluid or boundary), in groups of four, the sums in list order.
template <class PointOf, class VolumeOf>
void pair_terms(const Kernel& k, Vec3 xi, uint32_t begin, uint32_t end, PointOf point_of, VolumeOf volume_of,
                Vec3* gradient, float& rho, Vec3& grad_i, float* sum_squares) {
  for (uint32_t n = begin; n < end; n += kLanes) {
    const uint32_t count = end - n < kLanes ? end - n : kLanes;
    float dx[kLanes], dy[kLanes], dz[kLanes], volume[kLanes];
    for (uint32_t lane = 0; lane < kLanes; ++lane) {
      if (lane < count) {
        const Vec3 d = xi - point_of(n + lane);
        dx[lane] = d.x, dy[lane] = d.y, dz[lane] = d.z, volume[lane] = volume_of(n + lane);
      } else {
        dx[lane] = dy[lane] = dz[lane] = kFarOffset, volume[lane] = 0.0f;
      }
    }
    Lanes x, y, z, v;
    std::memcpy(&x, dx, sizeof(x));
    std::memcpy(&y, dy, sizeof(y));
    std::memcpy(&z, dz, sizeof(z));
    std::memcpy(&v, volume, sizeof(v));
    const PairLanes p = pair_lanes(k, x, y, z, v);
    for (uint32_t lane = 0; lane < count; ++lane) {
      const Vec3 g{p.gx[lane], p.gy[lane], p.gz[lane]};
      gradient[n + lane] = g;
      rho += volume[lane] * p.w[lane];
      grad_i += g;
      if (sum_squares) *sum_squares += dot(g, g);
    }
  }
}

}  // namespace

void compute_pairs_density_and_factor_sse(const Constants& c, const Arrays& a, uint32_t i, Vec3* fluid_gradient,
                                          Vec3* boundary_gradient) {
  const Vec3 xi = a.position[i];
  float rho = c.volume * c.kernel.w_zero;
  Vec3 grad_i{0, 0, 0};
  float sum_squares = 0.0f;
  pair_terms(
      c.kernel, xi, a.neighbour_begin[i], a.neighbour_begin[i + 1],
      [&](uint32_t n) { return a.position[a.neighbours[n]]; }, [&](uint32_t) { return c.volume; }, fluid_gradient, rho,
      grad_i, &sum_squares);
  pair_terms(
      c.kernel, xi, a.boundary_begin[i], a.boundary_begin[i + 1],
      [&](uint32_t n) { return a.boundary_position[a.boundary_neighbours[n]]; },
      [&](uint32_t n) { return a.boundary_volume[a.boundary_neighbours[n]]; }, boundary_gradient, rho, grad_i, nullptr);
  sum_squares += dot(grad_i, grad_i);
  a.density[i] = rho;
  a.factor[i] = dfsph_factor(c, sum_squares);
}

}  // namespace meniscus::sim::sph
