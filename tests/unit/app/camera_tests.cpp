// Camera matrices follow Vulkan's conventions: y down in clip space, depth in [0, 1].
#include <catch2/catch.hpp>

#include "engine/app/camera.h"

namespace meniscus {

TEST_CASE("perspective maps near to 0, far to 1 and flips y", "[camera]") {
  const glm::mat4 p = perspective_vulkan(glm::radians(90.0f), 1.0f, 0.5f, 100.0f);
  auto project = [&](glm::vec3 v) {
    const glm::vec4 c = p * glm::vec4(v, 1.0f);
    return glm::vec3(c) / c.w;
  };
  CHECK(project({0, 0, -0.5f}).z == Approx(0.0f).margin(1e-6));
  CHECK(project({0, 0, -100.0f}).z == Approx(1.0f).margin(1e-5));
  // A point above the axis lands in the upper half of the image: negative y in Vulkan.
  CHECK(project({0, 1, -1}).y == Approx(-1.0f));
}

TEST_CASE("the orbit camera looks at its target from the given angles", "[camera]") {
  Camera camera(Camera::Mode::Orbit, {1, 2, 3}, 5.0f, 0.0f, 30.0f, 45.0f, 0.1f, 100.0f, 1.0f);
  const CameraPose pose = camera.pose(1.0f);
  CHECK(glm::distance(pose.position, glm::vec3(1, 2, 3)) == Approx(5.0f));
  CHECK(pose.position.y > 2.0f);  // positive pitch looks down from above
  const glm::vec4 target_view = pose.view * glm::vec4(1, 2, 3, 1);
  CHECK(target_view.x == Approx(0.0f).margin(1e-5));
  CHECK(target_view.y == Approx(0.0f).margin(1e-5));
  CHECK(target_view.z == Approx(-5.0f));
  camera.update({.zoom = 1.0f});
  CHECK(glm::distance(camera.pose(1.0f).position, glm::vec3(1, 2, 3)) == Approx(4.5f));
}

}  // namespace meniscus
