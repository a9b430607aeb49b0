#pragma once
// The fluid's last two passes:
//   fluid.composite  shading at fluid resolution (Fresnel mix of refraction and cubemap
//                    reflection, absorption, Phong specular, foam; or a debug view) into a
//                    premultiplied colour with coverage;
//   fluid.upsample   that colour blended over the scene at full resolution, writing depth.
#include <glm/glm.hpp>

#include "engine/core/pipeline.h"
#include "engine/graph/frame_graph.h"
#include "passes/background/background_pass.h"
#include "passes/fluid/fluid_settings.h"

namespace meniscus::passes {

inline constexpr VkFormat kFluidColorFormat = VK_FORMAT_R16G16B16A16_SFLOAT;

struct FluidShadeInputs {
  graph::BufferHandle frame;
  graph::ImageHandle surface;    // smoothed view depth
  graph::ImageHandle thickness;
  graph::ImageHandle noise;      // invalid without foam
  graph::ImageHandle scene_color;
  graph::ImageHandle sky_cube;
  VkExtent2D extent{};           // fluid resolution
  glm::mat4 proj{1.0f};
};

class FluidCompositePass {
 public:
  explicit FluidCompositePass(const Context& context);
  ~FluidCompositePass();
  FluidCompositePass(const FluidCompositePass&) = delete;
  FluidCompositePass& operator=(const FluidCompositePass&) = delete;

  // The shaded fluid at fluid resolution.
  graph::ImageHandle add_shade(graph::FrameGraph& graph, const FluidShadeInputs& in, const FluidSettings& settings);
  // Blends `color` over the scene; returns the scene's new colour and depth.
  SceneTargets add_upsample(graph::FrameGraph& graph, const SceneTargets& scene, graph::ImageHandle color,
                            graph::ImageHandle surface, graph::BufferHandle frame);

 private:
  const Context& context_;
  Pipeline shade_;
  Pipeline upsample_;
  VkSampler nearest_;
  VkSampler linear_;
};

}  // namespace meniscus::passes
