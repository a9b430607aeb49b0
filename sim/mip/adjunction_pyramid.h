#pragma once
// The morphological adjunction pyramid of thesis §2.3.2 with the structuring element
// A = {0,1}^3 (the 2x2x2 cube, which satisfies the pyramid condition (2.5)):
//   REDUCE  f_{j+1}(n) = min of f_j over the block 2n + A      (erosion, then downsampling; 2.6)
//   EXPAND  (EXPAND g)(x) = g(floor(x / 2))                     (upsampling, then dilation; 2.7)
//   detail  d_j = f_j where f_j > EXPAND(f_{j+1}), else 0       (generalized subtraction; 2.8)
// and f = EXPAND^L(f_L) max over k of EXPAND^k(d_k) exactly (2.10). REDUCE is an erosion, so
// EXPAND(REDUCE(f)) is an opening and lies below f: the details are what that opening lost.
// The volume is padded with grey 0 to a multiple of 2^L on each axis; padding changes no max.
#include <cstdint>
#include <glm/glm.hpp>
#include <vector>

#include "sim/mip/grey_volume.h"

namespace meniscus::sim::mip {

// One dense level of the pyramid: a detail signal d_j or the approximation f_L.
struct PyramidLevel {
  glm::uvec3 dims{0};
  std::vector<uint16_t> values;  // x fastest

  size_t index(uint32_t x, uint32_t y, uint32_t z) const { return (size_t(z) * dims.y + y) * dims.x + x; }
  uint16_t at(uint32_t x, uint32_t y, uint32_t z) const { return values[index(x, y, z)]; }
};

struct AdjunctionPyramid {
  glm::uvec3 dims{0};                 // the volume's own size
  glm::uvec3 padded_dims{0};          // a multiple of 2^levels on each axis
  uint32_t levels = 0;                // L
  std::vector<PyramidLevel> details;  // d_0 .. d_{L-1}, d_j of size padded_dims >> j
  PyramidLevel approximation;         // f_L
  // The opening's value under each detail, EXPAND(f_{j+1}) on level j: what the auxiliary error
  // of the coefficient stream (coefficient_stream.h) measures a detail against.
  std::vector<PyramidLevel> expanded_approximations;
};

// Levels above kMaxPyramidLevels, or 2^levels above the smallest side of the volume: InputError.
constexpr uint32_t kMaxPyramidLevels = 8;
void check_pyramid_levels(glm::uvec3 dims, uint32_t levels);
// The volume's size rounded up to a multiple of 2^levels on each axis.
glm::uvec3 padded_pyramid_dims(glm::uvec3 dims, uint32_t levels);

AdjunctionPyramid build_adjunction_pyramid(const GreyVolume& volume, uint32_t levels);

// The synthesis (2.4) on the padded grid: the volume back, padding included.
PyramidLevel reconstruct(const AdjunctionPyramid& pyramid);

}  // namespace meniscus::sim::mip
