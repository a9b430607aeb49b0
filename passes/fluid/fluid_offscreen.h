#pragma once
// The fluid chain on its own, offscreen: sky, background and the fluid passes over a fixed
// particle set, with the intermediates read back and every pass timed. What the quantitative
// render tests and `meniscus-bench fluid` measure; the app draws the same passes through
// SceneRenderer.
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "engine/core/buffer.h"
#include "engine/graph/executor.h"
#include "engine/profile/gpu_timer.h"
#include "passes/background/background_pass.h"
#include "passes/fluid/fluid_renderer.h"
#include "passes/sky/sky_pass.h"
#include "sim/common/particle.h"

namespace meniscus::passes {

struct FluidCamera {
  glm::vec3 position{0.0f, 0.0f, 3.0f};
  glm::vec3 target{0.0f};
  float fov_y_degrees = 50.0f;
  float near_plane = 0.05f;
  float far_plane = 100.0f;
  bool ground = false;          // the checkered ground plane (else sky all round)
  float ground_height = 0.0f;

  glm::mat4 view() const;
  glm::mat4 proj(VkExtent2D extent) const;  // Vulkan clip space, as engine/app/camera.cpp
};

struct FluidReadback {
  VkExtent2D extent{};          // fluid resolution
  std::vector<float> depth;     // raw surface view depth (0 = no fluid)
  std::vector<float> smoothed;
  std::vector<float> thickness;
  std::vector<float> noise;     // empty without foam
  std::vector<profile::PassSample> passes;
};

class FluidOffscreen {
 public:
  FluidOffscreen(const Context& context, VkExtent2D extent, const std::vector<sim::Particle>& particles);
  ~FluidOffscreen();
  FluidOffscreen(const FluidOffscreen&) = delete;
  FluidOffscreen& operator=(const FluidOffscreen&) = delete;

  // Renders one frame and waits for it. With `read_back` the intermediates are copied out.
  FluidReadback render(const FluidCamera& camera, const FluidSettings& settings, bool read_back);

 private:
  const Context& context_;
  VkExtent2D extent_;
  uint32_t count_;
  Buffer particles_;
  Buffer uniforms_;
  graph::GraphExecutor executor_;
  profile::GpuPassTimer timer_;
  SkyPass sky_;
  BackgroundPass background_;
  FluidRenderer fluid_;
};

}  // namespace meniscus::passes
