#pragma once
// A triangle mesh with shared vertices, and what can be said and written about it.
#include <cstdint>
#include <filesystem>
#include <vector>

#include <glm/glm.hpp>

#include "engine/core/uninitialized_vector.h"

namespace meniscus::sim {

// resize() leaves new elements unset: every producer writes each one, and extraction fills
// large meshes from several threads rather than zeroing them on one first.
struct IndexedMesh {
  UninitializedVector<glm::vec3> positions;
  UninitializedVector<glm::vec3> normals;
  UninitializedVector<glm::uvec3> triangles;

  double area() const;
};

struct EdgeCensus {
  uint64_t boundary = 0;      // edges used by one triangle
  uint64_t manifold = 0;      // edges used by exactly two, in opposite directions
  uint64_t non_manifold = 0;  // used by more than two, or twice in the same direction
  bool watertight() const { return boundary == 0 && non_manifold == 0; }
};
EdgeCensus edge_census(const IndexedMesh& mesh);

// Binary little-endian PLY (positions, normals, faces) or Wavefront OBJ, by the path's suffix.
// Throws InputError naming the path for another suffix or a write failure.
void write_mesh(const std::filesystem::path& path, const IndexedMesh& mesh);

}  // namespace meniscus::sim
