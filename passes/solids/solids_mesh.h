#pragma once
// The solids as one triangle list (opaque shapes first, then glass), built once on the host:
// a few hundred triangles that never change, pulled by the vertex shaders from a storage
// buffer. Mirrors struct SolidVertex of shaders/include/solid_vertex.glsl.
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "passes/solids/solid_shape.h"

namespace meniscus::passes {

struct SolidVertex {
  glm::vec4 position;  // w = material kind (SolidMaterial::Kind as a float)
  glm::vec4 normal;    // w = ambient occlusion (1 open, towards 0 deep inside a pipe)
  glm::vec4 color;     // w = roughness; glass: the wall thickness
  // Glass: where on its panel the point lies and the panel's size (metres), so the shader can
  // thicken the edges; zero size marks a face seen edge-on (the rim), opaque all over.
  glm::vec4 panel;
};
static_assert(sizeof(SolidVertex) == 64, "must match solid_vertex.glsl (std430)");

struct SolidsMesh {
  std::vector<SolidVertex> vertices;
  uint32_t opaque_count = 0;  // vertices [0, opaque_count) are opaque
  uint32_t glass_count = 0;   // then this many glass vertices
  glm::vec3 bounds_min{0.0f};  // of every vertex (empty mesh: zero)
  glm::vec3 bounds_max{0.0f};
};

SolidsMesh build_solids_mesh(const std::vector<SolidShape>& shapes);

}  // namespace meniscus::passes
