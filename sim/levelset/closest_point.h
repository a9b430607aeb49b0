#pragma once
// Where a band voxel's nearest point on the zero level lies, −φ ∇φ/|∇φ| from it (φ a distance),
// by central differences. A normal speed read there instead of at the voxel is the front's own
// speed extended along the normals (Adalsteinsson & Sethian 1999): every voxel of the band then
// moves with the part of the front it belongs to, which keeps φ a distance, and the CFL step
// follows the speeds on the front rather than whatever the data holds a voxel or two beside it.
#include <cmath>

#include <glm/glm.hpp>

#include "sim/common/host_device.h"

namespace meniscus::sim::levelset {

// Where the nearest front point lies from p[0] of a block whose x, y, z neighbours lie 1, sy,
// sz apart, and the unit normal ∇φ/|∇φ| there; both 0 where the gradient vanishes.
struct FrontPoint {
  glm::vec3 offset{0.0f}, normal{0.0f};
};

MENISCUS_HD inline FrontPoint nearest_front_point(const float* p, int sy, int sz) {
  const glm::vec3 g(0.5f * (p[1] - p[-1]), 0.5f * (p[sy] - p[-sy]), 0.5f * (p[sz] - p[-sz]));
  const float length = sqrtf(g.x * g.x + g.y * g.y + g.z * g.z);
  if (!(length > 1e-6f)) return {};
  const float scale = -p[0] / length, unit = 1.0f / length;
  return {glm::vec3(g.x * scale, g.y * scale, g.z * scale), glm::vec3(g.x * unit, g.y * unit, g.z * unit)};
}

}  // namespace meniscus::sim::levelset
