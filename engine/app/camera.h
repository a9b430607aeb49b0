#pragma once
// The viewer's camera: orbit (drag to rotate about a target, scroll to zoom) or fly (WASD +
// mouse look). Produces Vulkan-convention matrices: y down in clip space, depth in [0, 1].
#include <glm/glm.hpp>

namespace meniscus {

struct CameraPose {
  glm::vec3 position;
  glm::mat4 view;
  glm::mat4 proj;
};

struct CameraInput {
  glm::vec2 rotate{0.0f};  // pixels dragged this frame
  float zoom = 0.0f;       // scroll steps
  glm::vec3 move{0.0f};    // fly: right, up, forward in [-1, 1]
  float dt = 0.0f;
};

class Camera {
 public:
  enum class Mode { Orbit, Fly };

  Camera(Mode mode, glm::vec3 target, float distance, float yaw_degrees, float pitch_degrees,
         float fov_y_degrees, float near_plane, float far_plane, float move_speed);

  void update(const CameraInput& input);
  CameraPose pose(float aspect) const;

  float near_plane() const { return near_; }
  float far_plane() const { return far_; }

 private:
  glm::vec3 forward() const;

  Mode mode_;
  glm::vec3 target_;
  glm::vec3 position_;
  float distance_;
  float yaw_;    // radians, about +y; 0 looks along -z
  float pitch_;  // radians, positive looks down on the target
  float fov_y_;
  float near_;
  float far_;
  float move_speed_;
};

// Right-handed view, Vulkan clip space (y flipped, z in [0, 1]).
glm::mat4 perspective_vulkan(float fov_y_radians, float aspect, float near_plane, float far_plane);

}  // namespace meniscus
