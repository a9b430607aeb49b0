#include "dam_break.h"

#include <algorithm>
#include <cmath>


namespace meniscus::test {
namespace {

// (T, Z) from Martin & Moyce (1952), n^2 = 2, as tabulated in ../shared/data/README.md.
constexpr double kTable[][2] = {{0.41, 1.11}, {0.84, 1.22}, {1.19, 1.44}, {1.43, 1.67}, {1.63, 1.89},
                                {1.83, 2.11}, {1.98, 2.33}, {2.20, 2.56}, {2.32, 2.78}, {2.51, 3.00},
                                {2.65, 3.22}, {2.83, 3.44}, {2.98, 3.67}, {3.11, 3.89}, {3.33, 4.11}};

}  // namespace

sim::SphParams dam_break_params(const DamBreak& s) {
  sim::SphParams p;
  const float d = s.a / float(s.columns);
  p.particle_radius = 0.5f * d;
  p.boundary_viscosity = s.wall_friction;
  p.viscosity = s.viscosity;
  p.domain = {{0, 0, 0}, {5.0f * s.a, 2.5f * s.a, s.depth}};
  p.fills.push_back({{{0, 0, 0}, {s.a, 2.0f * s.a, s.depth}}, {0, 0, 0}});
  return p;
}

std::vector<FrontSample> run_dam_break(const DamBreak& setup, const std::vector<double>& times) {
  const sim::SphParams params = dam_break_params(setup);
  sim::SphCpu sph(params);
  const double g = 9.81;
  const double time_scale = std::sqrt(setup.a / (2.0 * g));  // t per unit of T
  std::vector<FrontSample> samples;
  for (double T : times) {
    sph.step(T * time_scale - sph.time());
    float front = 0.0f;
    for (const sim::Particle& p : sph.particles()) front = std::max(front, p.position[0]);
    // The fluid reaches half a spacing past its outermost particle centre (Z = 1 at T = 0).
    samples.push_back({T, (front + params.particle_radius) / setup.a});
  }
  return samples;
}

double martin_moyce_front(double T) {
  constexpr int n = int(std::size(kTable));
  if (T <= kTable[0][0]) return kTable[0][1];
  for (int k = 1; k < n; ++k)
    if (T <= kTable[k][0]) {
      const double w = (T - kTable[k - 1][0]) / (kTable[k][0] - kTable[k - 1][0]);
      return kTable[k - 1][1] + w * (kTable[k][1] - kTable[k - 1][1]);
    }
  return kTable[n - 1][1];
}

}  // namespace meniscus::test
