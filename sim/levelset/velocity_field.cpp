#include "sim/levelset/velocity_field.h"

#include <cmath>
#include <memory>
#include <vector>

#include "sim/levelset/gpu_stl_fields.h"

namespace meniscus::sim::levelset {

namespace {

constexpr double kPi = 3.14159265358979323846;  // as enright_velocity_at spells it

// sin(πx) and sin(2πx) at the cell centres x = (i + ½) / n, as enright_velocity_at computes them.
struct AxisSines {
  std::vector<double> s, s2;
};

// cos(π t / period) n, which a whole Runge–Kutta stage shares: the last one this thread made.
double time_scale(double n, float period, float t) {
  thread_local struct {
    double n = 0;
    float period = 0, t = 0;
    double scale = 0;
  } last;
  if (last.n != n || last.period != period || last.t != t)
    last = {n, period, t, cos(kPi * t / period) * n};
  return last.scale;
}

AxisSines axis_sines(int n) {
  AxisSines a{std::vector<double>(n), std::vector<double>(n)};
  for (int i = 0; i < n; ++i) {
    const double x = (double(float(i)) + 0.5) / n;
    a.s[i] = sin(kPi * x);
    a.s2[i] = 2 * a.s[i] * cos(kPi * x);
  }
  return a;
}

}  // namespace

VelocityField enright_velocity(int resolution, float period) {
  // One formula for both backends (gpu_stl_fields.h). The field is a product of per-axis sines,
  // and band voxels sit at integer coordinates: those come from tables of exactly the values
  // the formula computes, and the time's cosine from this thread's last voxel at the same time.
  const double n = resolution;
  auto sines = std::make_shared<const AxisSines>(axis_sines(resolution));
  return [n, period, sines](glm::vec3 voxel, float t) {
    const glm::ivec3 i(voxel);
    const int last = int(sines->s.size()) - 1;
    if (glm::vec3(i) != voxel || glm::any(glm::lessThan(i, glm::ivec3(0))) || glm::any(glm::greaterThan(i, glm::ivec3(last))))
      return enright_velocity_at(n, period, voxel, t);
    const AxisSines& a = *sines;
    const double scale = time_scale(n, period, t);
    return glm::vec3(float(scale * 2 * a.s[i.x] * a.s[i.x] * a.s2[i.y] * a.s2[i.z]),
                     float(-scale * a.s2[i.x] * a.s[i.y] * a.s[i.y] * a.s2[i.z]),
                     float(-scale * a.s2[i.x] * a.s2[i.y] * a.s[i.z] * a.s[i.z]));
  };
}

}  // namespace meniscus::sim::levelset
