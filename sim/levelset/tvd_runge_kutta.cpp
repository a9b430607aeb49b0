#include "sim/levelset/tvd_runge_kutta.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace meniscus::sim::levelset {
namespace {

// Stage k: φ ← a_k φn + b_k (φ + dt L(φ, t + c_k dt)).
struct Stage {
  float a, b, c;
};
constexpr Stage kEuler[] = {{0.0f, 1.0f, 0.0f}};
constexpr Stage kRk3[] = {{0.0f, 1.0f, 0.0f}, {0.75f, 0.25f, 1.0f}, {1.0f / 3.0f, 2.0f / 3.0f, 0.5f}};

template <class Body>
void over_tiles(size_t count, Body&& body) {
  tbb::parallel_for(tbb::blocked_range<size_t>(0, count, 256), [&](const tbb::blocked_range<size_t>& r) {
    for (size_t i = r.begin(); i != r.end(); ++i) body(i);
  });
}

}  // namespace

float TvdRungeKutta::step(SortedTileList& list, Scheme scheme, float t, float cfl, float max_dt,
                          const RateFunction& rate) {
  const auto& active = list.active();
  const size_t voxels = active.size() * kTileVoxels;
  const float gamma = list.gamma();
  base_.resize(voxels);
  rate_.resize(voxels);
  over_tiles(active.size(), [&](size_t i) { list.read(active[i].id, base_.data() + i * kTileVoxels); });

  const Stage* stages = scheme == Scheme::kWeno5 ? kRk3 : kEuler;
  const int count = scheme == Scheme::kWeno5 ? 3 : 1;
  // After the last stage, values within snap_ of ±γ become ±γ. Without it, stencils next to
  // the clamp's kink leave values a few ulps inside the band, those activate their tiles, whose
  // neighbours read them and do the same: the band creeps outwards by the stencil's reach every
  // stage until it fills the domain. A deviation this small moves no surface. The snap comes
  // before the values are stored, so 16-bit tiles round the snapped value (as the CUDA stage).
  const float snap = gamma - snap_;
  float dt = 0;
  for (int k = 0; k < count; ++k) {
    const float speed = rate(list, t + stages[k].c * dt, rate_);
    if (k == 0) {
      dt = speed > 0 ? std::min(max_dt, cfl / speed) : max_dt;
      if (!std::isfinite(dt)) throw std::invalid_argument("TvdRungeKutta::step: nothing moves and no max_dt bounds the step");
    }
    const Stage s = stages[k];
    const bool last = k == count - 1;
    over_tiles(active.size(), [&](size_t i) {
      float phi[kTileVoxels];
      list.read(active[i].id, phi);
      const float* phi_n = base_.data() + i * kTileVoxels;
      const float* l = rate_.data() + i * kTileVoxels;
      for (int v = 0; v < kTileVoxels; ++v) {
        phi[v] = std::clamp(s.a * phi_n[v] + s.b * (phi[v] + dt * l[v]), -gamma, gamma);
        if (last && std::abs(phi[v]) > snap) phi[v] = std::copysign(gamma, phi[v]);
      }
      list.write(active[i].id, phi);
      if (last) list.update_flags(active[i].id);
    });
  }
  return dt;
}

}  // namespace meniscus::sim::levelset
