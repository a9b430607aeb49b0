#pragma once
// The external fields of Eq. 1: an external velocity U(x, t) and a normal speed F(x), both
// evaluated at voxel positions (voxel (i, j, k) is the point (i, j, k), as for the level set)
// and in voxels per unit time. A velocity is a callable of time so each Runge–Kutta stage can
// ask for it at its own time; fields given in other units are wrapped (see enright_velocity).
#include <functional>

#include <glm/glm.hpp>

namespace meniscus::sim::levelset {

using VelocityField = std::function<glm::vec3(glm::vec3 voxel, float t)>;
using SpeedField = std::function<float(glm::vec3 voxel)>;

inline VelocityField constant_velocity(glm::vec3 u) {
  return [u](glm::vec3, float) { return u; };
}

inline SpeedField constant_speed(float f) {
  return [f](glm::vec3) { return f; };
}

// LeVeque's 3D deformation field as used by Enright et al. (2002) on the unit cube, time
// reversed at t = period / 2 by the factor cos(π t / period), so that the exact solution at
// t = period is the initial surface again:
//   u =  2 sin²(πx) sin(2πy) sin(2πz),  v = −sin(2πx) sin²(πy) sin(2πz),
//   w = −sin(2πx) sin(2πy) sin²(πz).
// The unit cube is sampled cell-centred by `resolution` voxels per side: voxel i is at
// x = (i + ½) / resolution.
VelocityField enright_velocity(int resolution, float period = 3.0f);

}  // namespace meniscus::sim::levelset
