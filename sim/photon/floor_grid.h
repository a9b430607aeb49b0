#pragma once
// The floor rectangle a caustic is estimated over, and the arithmetic both backends do on it
// (host-device, C++17), so that they estimate at the same points and round alike.
#include <cstdint>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "sim/common/host_device.h"

namespace meniscus::sim::photon {

struct FloorGrid {
  glm::vec2 min{0.0f}, max{1.0f};  // x, z
  float y = 0.0f;
  uint32_t width = 64, height = 64;
};

// The size of one cell.
MENISCUS_HD inline glm::vec2 cell_size(const FloorGrid& grid) {
  return (grid.max - grid.min) / glm::vec2(float(grid.width), float(grid.height));
}

// The centre of cell (x, z), where the irradiance is estimated.
MENISCUS_HD inline glm::vec3 cell_centre(const FloorGrid& grid, glm::vec2 step, uint32_t x, uint32_t z) {
  return {grid.min.x + (float(x) + 0.5f) * step.x, grid.y, grid.min.y + (float(z) + 0.5f) * step.y};
}

// E = k Φ / (π r_k²): `energy` is k Φ / π; no photon within reach (r = 0: all k coincide with
// the centre, which a finite estimate cannot say) reads as none.
MENISCUS_HD inline float irradiance_at(float energy, float r) { return r > 0.0f ? energy / (r * r) : 0.0f; }

}  // namespace meniscus::sim::photon
