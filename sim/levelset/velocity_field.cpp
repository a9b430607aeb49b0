#include "sim/levelset/velocity_field.h"

#include <cmath>
#include <numbers>

namespace meniscus::sim::levelset {

VelocityField enright_velocity(int resolution, float period) {
  const double n = resolution;
  return [n, period](glm::vec3 voxel, float t) {
    constexpr double kPi = std::numbers::pi;
    // Double precision for the trigonometry: float sin(2πx) near x = 1 costs a few ulps of
    // velocity that the period-reversal test would otherwise pick up as asymmetry.
    const double x = (voxel.x + 0.5) / n, y = (voxel.y + 0.5) / n, z = (voxel.z + 0.5) / n;
    const double sx = std::sin(kPi * x), sy = std::sin(kPi * y), sz = std::sin(kPi * z);
    // sin 2a = 2 sin a cos a: three sines and three cosines where six sines cost twice as much.
    const double s2x = 2 * sx * std::cos(kPi * x), s2y = 2 * sy * std::cos(kPi * y), s2z = 2 * sz * std::cos(kPi * z);
    const double scale = std::cos(kPi * t / period) * n;  // unit-cube lengths to voxels
    return glm::vec3(float(scale * 2 * sx * sx * s2y * s2z), float(-scale * s2x * sy * sy * s2z),
                     float(-scale * s2x * s2y * sz * sz));
  };
}

}  // namespace meniscus::sim::levelset
