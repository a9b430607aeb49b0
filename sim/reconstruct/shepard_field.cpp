#include "sim/reconstruct/shepard_field.h"

#include <cmath>

#include <glm/glm.hpp>

namespace meniscus::sim::reconstruct {

glm::vec3 shepard_velocity(std::span<const glm::vec3> samples, glm::vec3 x, float p, float epsilon) {
  glm::dvec3 weighted(0.0);
  double total = 0.0;
  const double e2 = double(epsilon) * epsilon;
  for (const glm::vec3& s : samples) {
    const glm::dvec3 to_sample = glm::dvec3(s) - glm::dvec3(x);
    const double d = std::sqrt(glm::dot(to_sample, to_sample) + e2);
    const double w = std::pow(d, -double(p));
    weighted += w * to_sample / d;
    total += w;
  }
  return total > 0.0 ? glm::vec3(weighted / total) : glm::vec3(0.0f);
}

glm::vec3 toward_samples(const float minus[3], const float plus[3], const float spacing[3]) {
  const glm::vec3 gradient((plus[0] - minus[0]) / spacing[0], (plus[1] - minus[1]) / spacing[1],
                           (plus[2] - minus[2]) / spacing[2]);
  const float length = glm::length(gradient);
  // P is a sum of positive terms of size up to N/ε^(p-1): a gradient this far below float
  // resolution of P is rounding, not a direction.
  const float scale = std::max(std::max(std::abs(minus[0]), std::abs(plus[0])), 1e-30f);
  if (!(length > 1e-6f * scale)) return glm::vec3(0.0f);
  return gradient / length;
}

}  // namespace meniscus::sim::reconstruct
