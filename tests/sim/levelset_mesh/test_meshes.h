#pragma once
// Closed test meshes with known signed distances.
#include <cmath>
#include <map>
#include <utility>

#include "sim/common/mesh_reader.h"

namespace meniscus::test {

// The unit cube [0, 1]^3 as 12 outward-facing triangles.
inline sim::TriangleMesh unit_cube() {
  sim::TriangleMesh m;
  for (int i = 0; i < 8; ++i) m.vertices.push_back({float(i & 1), float(i >> 1 & 1), float(i >> 2 & 1)});
  const uint32_t faces[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  for (const auto& f : faces) {
    m.triangles.push_back({f[0], f[1], f[2]});
    m.triangles.push_back({f[0], f[2], f[3]});
  }
  return m;
}

// An icosahedron subdivided `levels` times and projected onto the sphere of `radius`.
inline sim::TriangleMesh icosphere(int levels, float radius) {
  const float t = (1.0f + std::sqrt(5.0f)) / 2.0f;
  sim::TriangleMesh m;
  const float base[12][3] = {{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0}, {0, -1, t}, {0, 1, t},
                             {0, -1, -t}, {0, 1, -t}, {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1}};
  auto push = [&](float x, float y, float z) {
    const float l = std::sqrt(x * x + y * y + z * z);
    m.vertices.push_back({radius * x / l, radius * y / l, radius * z / l});
    return uint32_t(m.vertices.size() - 1);
  };
  for (const auto& v : base) push(v[0], v[1], v[2]);
  m.triangles = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
                 {11, 10, 2}, {10, 7, 6}, {7, 1, 8},   {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
                 {3, 8, 9},  {4, 9, 5},  {2, 4, 11},  {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
  for (int level = 0; level < levels; ++level) {
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> middle;
    auto mid = [&](uint32_t a, uint32_t b) {
      const auto key = std::minmax(a, b);
      const auto found = middle.find(key);
      if (found != middle.end()) return found->second;
      const auto& p = m.vertices[a];
      const auto& q = m.vertices[b];
      return middle[key] = push(p[0] + q[0], p[1] + q[1], p[2] + q[2]);
    };
    std::vector<std::array<uint32_t, 3>> next;
    for (const auto& f : m.triangles) {
      const uint32_t ab = mid(f[0], f[1]), bc = mid(f[1], f[2]), ca = mid(f[2], f[0]);
      next.push_back({f[0], ab, ca});
      next.push_back({f[1], bc, ab});
      next.push_back({f[2], ca, bc});
      next.push_back({ab, bc, ca});
    }
    m.triangles = std::move(next);
  }
  return m;
}

}  // namespace meniscus::test
