#pragma once
// Volumes whose segmentation is known in closed form: concentric balls of constant intensity
// with a linear ramp one sample wide at each edge, so the threshold crossing lies at a known
// radius (where the intensity passes the lower threshold).
#include <cmath>
#include <vector>

#include <glm/glm.hpp>

#include "sim/histopyramid/volume.h"

namespace meniscus::sim::testing {

struct Shell {
  float radius;     // millimetres: the intensity is half-way up its ramp here
  float intensity;  // inside
};

// Intensity at distance r: the innermost shell containing r sets it, 0 outside all.
inline float shells_intensity(const std::vector<Shell>& shells, float r) {
  float value = 0.0f;
  for (auto s = shells.rbegin(); s != shells.rend(); ++s) {
    const float inside = std::clamp(s->radius - r + 0.5f, 0.0f, 1.0f);  // 1 inside, 0 outside, ramp 1 mm
    value = value + inside * (s->intensity - value);
  }
  return value;
}

inline Volume shells_volume(glm::uvec3 dims, glm::vec3 spacing, glm::vec3 centre_mm, const std::vector<Shell>& shells) {
  Volume v;
  v.dims = dims;
  v.spacing = spacing;
  v.source = "shells";
  v.values.resize(size_t(dims.x) * dims.y * dims.z);
  for (uint32_t z = 0; z < dims.z; ++z)
    for (uint32_t y = 0; y < dims.y; ++y)
      for (uint32_t x = 0; x < dims.x; ++x)
        v.values[v.index(x, y, z)] = shells_intensity(shells, glm::length(glm::vec3(x, y, z) * spacing - centre_mm));
  return v;
}

}  // namespace meniscus::sim::testing
