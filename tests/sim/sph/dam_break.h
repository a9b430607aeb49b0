#pragma once
// The Martin & Moyce (1952) dam break in SPH: a column a wide and 2a high released at the left
// wall of a tank, its surge front Z = x / a recorded against T = t sqrt(2 g / a).
#include <vector>

#include "sim/sph/sph_cpu.h"

#include "sim/sph/sph_params.h"

namespace meniscus::test {

struct DamBreak {
  float a;       // column width (m)
  int columns;   // particles across a
  float depth;   // tank depth (m), the third axis
  float wall_friction = 0.0f;  // boundary_viscosity (m^2/s)
  float viscosity = 1e-5f;
};

sim::SphParams dam_break_params(const DamBreak& setup);

struct FrontSample {
  double T;  // t * sqrt(2 g / a)
  double Z;  // front / a
};

// Runs the CPU backend, sampling the front at each T in `times` (ascending, dimensionless).
// The front is the farthest particle's centre plus a particle radius (Z = 1 at T = 0).
std::vector<FrontSample> run_dam_break(const DamBreak& setup, const std::vector<double>& times);

// Martin & Moyce's measurements (../shared/data/README.md), linearly interpolated.
double martin_moyce_front(double T);

}  // namespace meniscus::test
