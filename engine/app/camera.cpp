#include "engine/app/camera.h"

#include <algorithm>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

namespace meniscus {
namespace {
constexpr float kMaxPitch = glm::radians(89.0f);
constexpr float kRadiansPerPixel = 0.005f;
}  // namespace

glm::mat4 perspective_vulkan(float fov_y, float aspect, float near_plane, float far_plane) {
  const float f = 1.0f / std::tan(fov_y * 0.5f);
  glm::mat4 m(0.0f);
  m[0][0] = f / aspect;
  m[1][1] = -f;  // Vulkan's clip-space y points down
  m[2][2] = far_plane / (near_plane - far_plane);
  m[2][3] = -1.0f;
  m[3][2] = near_plane * far_plane / (near_plane - far_plane);
  return m;
}

Camera::Camera(Mode mode, glm::vec3 target, float distance, float yaw_degrees, float pitch_degrees,
               float fov_y_degrees, float near_plane, float far_plane, float move_speed)
    : mode_(mode),
      target_(target),
      distance_(distance),
      yaw_(glm::radians(yaw_degrees)),
      pitch_(glm::radians(pitch_degrees)),
      fov_y_(glm::radians(fov_y_degrees)),
      near_(near_plane),
      far_(far_plane),
      move_speed_(move_speed) {
  position_ = target_ - forward() * distance_;
}

glm::vec3 Camera::forward() const {
  return {-std::sin(yaw_) * std::cos(pitch_), -std::sin(pitch_), -std::cos(yaw_) * std::cos(pitch_)};
}

void Camera::update(const CameraInput& input) {
  yaw_ -= input.rotate.x * kRadiansPerPixel;
  pitch_ = std::clamp(pitch_ + input.rotate.y * kRadiansPerPixel, -kMaxPitch, kMaxPitch);
  if (mode_ == Mode::Orbit) {
    distance_ = std::clamp(distance_ * std::pow(0.9f, input.zoom), near_ * 2.0f, far_ * 0.5f);
    position_ = target_ - forward() * distance_;
    return;
  }
  const glm::vec3 f = forward();
  const glm::vec3 right = glm::normalize(glm::cross(f, glm::vec3(0, 1, 0)));
  const glm::vec3 up(0, 1, 0);
  position_ += (right * input.move.x + up * input.move.y + f * input.move.z) * move_speed_ * input.dt;
  target_ = position_ + f * distance_;
}

CameraPose Camera::pose(float aspect) const {
  return {position_, glm::lookAt(position_, position_ + forward(), glm::vec3(0, 1, 0)),
          perspective_vulkan(fov_y_, aspect, near_, far_)};
}

}  // namespace meniscus
