#pragma once
// The sculpting brush of the thesis' interactive level-set editing (003, §7.6.3, Eq. 7.5): a
// local, Gaussian-weighted morphological operator,
//   F(x) = f0 · exp(−d² / 2σ²)  for d = |x − x_m| <= 3σ,  0 beyond,
// a normal speed that adds material around the widget's centre x_m (f0 > 0, dilation) or
// removes it (f0 < 0, erosion). The evolution's curvature term smooths what it leaves. As data
// so both backends evaluate it with the same arithmetic.
#include <cmath>

#include <glm/glm.hpp>

#include "sim/common/host_device.h"

namespace meniscus::sim::levelset {

struct BrushSpeed {
  glm::vec3 centre{0.0f};  // x_m, level-set voxels
  float sigma = 0.0f;      // voxels; 0: no brush
  float strength = 0.0f;   // f0, voxels per unit time
  friend bool operator==(const BrushSpeed&, const BrushSpeed&) = default;
};

MENISCUS_HD inline float brush_speed_at(const BrushSpeed& b, glm::vec3 voxel) {
  const glm::vec3 d = voxel - b.centre;
  const float d2 = d.x * d.x + d.y * d.y + d.z * d.z;
  const float reach = 3.0f * b.sigma;
  if (!(d2 <= reach * reach)) return 0.0f;
  return b.strength * expf(-d2 / (2.0f * b.sigma * b.sigma));
}

}  // namespace meniscus::sim::levelset
