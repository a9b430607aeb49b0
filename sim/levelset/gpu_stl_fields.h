#pragma once
// The external fields of Eq. 1 as data rather than callables, so the CUDA backend can evaluate
// them on the device: the velocity U(x, t) is none, a constant, or LeVeque's deformation field
// of the Enright test; the normal speed F is a constant. The CPU's enright_velocity() calls the
// same function, so both backends evaluate U with the same arithmetic (in double, as there).
#include <cmath>

#include <glm/glm.hpp>

#include "sim/common/host_device.h"

namespace meniscus::sim::levelset {

struct FieldVelocity {
  enum class Kind { kNone, kConstant, kEnright };
  Kind kind = Kind::kNone;
  glm::vec3 constant{0.0f};  // kConstant: voxels per unit time
  int resolution = 0;        // kEnright: voxels per side of the unit cube
  float period = 3.0f;       // kEnright: the field reverses at period / 2
};

// LeVeque's field at a voxel (cell-centred unit cube, see velocity_field.h), in voxels per unit
// time. Double precision for the trigonometry: float sin(2πx) near x = 1 costs a few ulps of
// velocity that the period-reversal test would otherwise pick up as asymmetry.
MENISCUS_HD inline glm::vec3 enright_velocity_at(double n, float period, glm::vec3 voxel, float t) {
  constexpr double kPi = 3.14159265358979323846;  // std::numbers::pi, which device code lacks
  const double x = (voxel.x + 0.5) / n, y = (voxel.y + 0.5) / n, z = (voxel.z + 0.5) / n;
  const double sx = sin(kPi * x), sy = sin(kPi * y), sz = sin(kPi * z);
  // sin 2a = 2 sin a cos a: three sines and three cosines where six sines cost twice as much.
  const double s2x = 2 * sx * cos(kPi * x), s2y = 2 * sy * cos(kPi * y), s2z = 2 * sz * cos(kPi * z);
  const double scale = cos(kPi * t / period) * n;  // unit-cube lengths to voxels
  return glm::vec3(float(scale * 2 * sx * sx * s2y * s2z), float(-scale * s2x * sy * sy * s2z),
                   float(-scale * s2x * s2y * sz * sz));
}

MENISCUS_HD inline glm::vec3 velocity_at(const FieldVelocity& u, glm::vec3 voxel, float t) {
  switch (u.kind) {
    case FieldVelocity::Kind::kConstant: return u.constant;
    case FieldVelocity::Kind::kEnright: return enright_velocity_at(double(u.resolution), u.period, voxel, t);
    default: return glm::vec3(0.0f);
  }
}

}  // namespace meniscus::sim::levelset
