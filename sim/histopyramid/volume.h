#pragma once
// A dense scalar volume: samples on a regular grid, x fastest.
#include <cstdint>
#include <string>
#include <vector>

#include <glm/glm.hpp>

namespace meniscus::sim {

struct Volume {
  glm::uvec3 dims{0};
  glm::vec3 spacing{1.0f};
  glm::vec3 origin{0.0f};
  std::vector<float> values;
  std::string source;  // file or field name, for messages

  size_t index(uint32_t x, uint32_t y, uint32_t z) const { return (size_t(z) * dims.y + y) * dims.x + x; }
  float at(uint32_t x, uint32_t y, uint32_t z) const { return values[index(x, y, z)]; }
  uint64_t cell_count() const {
    return dims.x < 2 || dims.y < 2 || dims.z < 2 ? 0 : uint64_t(dims.x - 1) * (dims.y - 1) * (dims.z - 1);
  }
  glm::vec2 range() const;
};

// Analytic fields sampled on n^3 points over [-1, 1]^3 (sample i -> 2i/(n-1) - 1).
//  cayley: 1 - 16xyz - 4(x^2 + y^2 + z^2), iso 0 (../shared/data/README.md)
//  sphere: 0.8 - |p| (radius 0.8, inside positive), torus: 0.25^2 - (sqrt(x^2+y^2) - 0.6)^2 - z^2
Volume make_field(const std::string& name, uint32_t n);

}  // namespace meniscus::sim
