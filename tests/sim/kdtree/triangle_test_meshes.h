#pragma once
// Meshes for the triangle kd-tree tests (the CPU build's and the CUDA build's), and a camera
// to look at them.
#include <cmath>
#include <filesystem>
#include <glm/geometric.hpp>
#include <glm/vec3.hpp>
#include <random>
#include <vector>

#include "sim/common/mesh_reader.h"
#include "sim/kdtree/triangle_traversal.h"

namespace meniscus::sim::kdtree::test {

struct Mesh {
  std::vector<glm::vec3> vertices;
  std::vector<uint32_t> indices;
};

// Triangles of mixed sizes (slivers to a tenth of the box), clustered and spread, some sharing
// planes: the cases a kd-tree over a real scene meets. `bad`: every 97th of zero area and every
// 101st with a NaN corner besides.
inline Mesh random_soup(size_t count, uint32_t seed, bool bad = false) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  Mesh mesh;
  for (size_t t = 0; t < count; ++t) {
    const glm::vec3 centre = t % 3 == 0 ? glm::vec3(0.3f) + 0.1f * glm::vec3(unit(rng), unit(rng), unit(rng))
                                        : glm::vec3(unit(rng), unit(rng), unit(rng));
    const float size = t % 7 == 0 ? 0.1f : 0.02f;
    for (int c = 0; c < 3; ++c) {
      glm::vec3 p = centre + size * (glm::vec3(unit(rng), unit(rng), unit(rng)) - 0.5f);
      if (t % 11 == 0) p.z = 0.5f;  // flat in a common plane
      if (bad && t % 97 == 0 && c == 2) p = mesh.vertices.back();
      if (bad && t % 101 == 0 && c == 1) p.y = std::nanf("");
      mesh.vertices.push_back(p);
      mesh.indices.push_back(uint32_t(mesh.vertices.size() - 1));
    }
  }
  return mesh;
}

// The faces of the unit cube, each an n x n grid: many triangles in a few planes, splits that
// fall on grid lines.
inline Mesh grid_cube(int n) {
  Mesh mesh;
  for (int axis = 0; axis < 3; ++axis)
    for (const float side : {0.0f, 1.0f})
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
          const auto corner = [&](int di, int dj) {
            glm::vec3 p;
            p[axis] = side;
            p[(axis + 1) % 3] = float(i + di) / n;
            p[(axis + 2) % 3] = float(j + dj) / n;
            mesh.vertices.push_back(p);
            return uint32_t(mesh.vertices.size() - 1);
          };
          const uint32_t a = corner(0, 0), b = corner(1, 0), c = corner(1, 1), d = corner(0, 1);
          mesh.indices.insert(mesh.indices.end(), {a, b, c, a, c, d});
        }
  return mesh;
}

// A camera on the box's diagonal looking at its centre, its image of side x side pixels
// covering the box.
struct BoxCamera {
  glm::vec3 eye, forward, right, up;
  BoxCamera(const glm::vec3& lo, const glm::vec3& hi) {
    const glm::vec3 centre = 0.5f * (lo + hi);
    const float radius = 0.5f * glm::length(hi - lo);
    eye = centre + 2.2f * radius * glm::normalize(glm::vec3(0.6f, 0.45f, 0.66f));
    forward = glm::normalize(centre - eye);
    right = glm::normalize(glm::cross(forward, glm::vec3(0.0f, 1.0f, 0.0f)));
    up = glm::cross(right, forward);
  }
  Ray through(int x, int y, int side) const {
    const float u = (x + 0.5f) / side * 2.0f - 1.0f, v = (y + 0.5f) / side * 2.0f - 1.0f;
    return {eye, forward * 2.2f + right * u + up * v};
  }
};

inline Mesh read_triangles(const std::filesystem::path& file) {
  const TriangleMesh m = read_mesh(file);
  Mesh mesh;
  for (const auto& v : m.vertices) mesh.vertices.push_back({v[0], v[1], v[2]});
  for (const auto& t : m.triangles) mesh.indices.insert(mesh.indices.end(), t.begin(), t.end());
  return mesh;
}

}  // namespace meniscus::sim::kdtree::test
