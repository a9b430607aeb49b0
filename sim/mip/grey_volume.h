#pragma once
// A volume as the non-negative integer grey levels the adjunction pyramid needs: the thesis'
// generalized subtraction (2.8) maps to 0, "the smallest voxel value possible", so every value
// is shifted by the volume's minimum. Max is then exact on integers, on the CPU and the GPU.
#include <cstdint>
#include <glm/glm.hpp>
#include <vector>

#include "sim/histopyramid/volume.h"

namespace meniscus::sim::mip {

struct GreyVolume {
  glm::uvec3 dims{0};
  glm::vec3 spacing{1.0f};
  std::vector<uint16_t> values;  // x fastest
  float offset = 0.0f;           // the volume value of grey 0

  size_t index(uint32_t x, uint32_t y, uint32_t z) const { return (size_t(z) * dims.y + y) * dims.x + x; }
  uint16_t at(uint32_t x, uint32_t y, uint32_t z) const { return values[index(x, y, z)]; }
};

// Values minus the minimum, rounded. InputError (naming the volume) when it is empty, holds a
// NaN or infinity, or spans more than 65535 grey levels.
GreyVolume to_grey_levels(const Volume& volume);

}  // namespace meniscus::sim::mip
