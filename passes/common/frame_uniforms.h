#pragma once
// Host mirror of shaders/include/frame.glsl: per-frame camera and environment.
#include <glm/glm.hpp>

namespace meniscus::passes {

struct FrameUniforms {
  glm::mat4 view;
  glm::mat4 proj;
  glm::mat4 view_proj;
  glm::mat4 inv_view_proj;
  glm::vec4 camera_position;  // w = time
  glm::vec4 sun_direction;    // w = intensity
  glm::vec4 sun_color;        // w = exposure
  glm::vec4 sky_zenith;
  glm::vec4 sky_horizon;
  glm::vec4 ground_color_a;  // w = ground height
  glm::vec4 ground_color_b;  // w = tile size
  glm::vec4 viewport;        // w, h, 1/w, 1/h
  glm::vec4 flags;           // x = ground enabled, y = near, z = far
};
static_assert(sizeof(FrameUniforms) == 4 * 64 + 9 * 16, "must match frame.glsl (std430)");

}  // namespace meniscus::passes
