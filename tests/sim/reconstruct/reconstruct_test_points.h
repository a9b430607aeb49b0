#pragma once
// Point samples of analytic surfaces for the reconstruction tests (deterministic).
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include <glm/glm.hpp>

namespace meniscus::test {

// `n` points on a sphere (Fibonacci spiral: near-uniform spacing).
inline std::vector<glm::vec3> sphere_samples(size_t n, glm::vec3 centre, float radius) {
  std::vector<glm::vec3> points(n);
  const float golden = 3.14159265f * (3.0f - std::sqrt(5.0f));
  for (size_t i = 0; i < n; ++i) {
    const float z = 1.0f - 2.0f * (float(i) + 0.5f) / float(n);
    const float r = std::sqrt(1.0f - z * z);
    points[i] = centre + radius * glm::vec3(r * std::cos(golden * float(i)), r * std::sin(golden * float(i)), z);
  }
  return points;
}

// A torus around z: ring radius R, tube radius r, on a u x v grid of angles.
inline std::vector<glm::vec3> torus_samples(int u_count, int v_count, float R, float r) {
  std::vector<glm::vec3> points;
  for (int i = 0; i < u_count; ++i)
    for (int j = 0; j < v_count; ++j) {
      const float u = 6.2831853f * (float(i) + 0.5f * float(j % 2)) / float(u_count);
      const float v = 6.2831853f * float(j) / float(v_count);
      points.emplace_back((R + r * std::cos(v)) * std::cos(u), (R + r * std::cos(v)) * std::sin(u), r * std::sin(v));
    }
  return points;
}

// Distance from p to the torus above.
inline float torus_distance(glm::vec3 p, float R, float r) {
  const float ring = std::sqrt(p.x * p.x + p.y * p.y) - R;
  return std::sqrt(ring * ring + p.z * p.z) - r;
}

}  // namespace meniscus::test
