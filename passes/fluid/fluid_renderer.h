#pragma once
// The whole screen-space fluid chain of thesis chapter 5, added to a frame graph in order:
//   fluid.depth -> fluid.smooth -> fluid.thickness -> [fluid.noise] -> fluid.composite
//   -> fluid.upsample -> [fluid.spray]
// The depth, thickness, smoothing, noise and shading run at full, half or quarter resolution;
// the upsample blends the result over the full-resolution scene and writes its depth.
#include <cstdint>

#include <glm/glm.hpp>

#include "engine/graph/frame_graph.h"
#include "passes/background/background_pass.h"
#include "passes/fluid/fluid_composite_pass.h"
#include "passes/fluid/fluid_settings.h"
#include "passes/fluid/fluid_smooth_pass.h"
#include "passes/fluid/fluid_spray_pass.h"
#include "passes/fluid/fluid_sprite_passes.h"

namespace meniscus::passes {

// The chain's intermediates (fluid resolution), for tests, debug readbacks and the benchmark.
struct FluidImages {
  graph::ImageHandle depth;      // raw surface view depth, 0 = no fluid
  graph::ImageHandle smoothed;   // after fluid.smooth
  graph::ImageHandle thickness;
  graph::ImageHandle noise;      // invalid without foam
  graph::ImageHandle color;      // shaded, premultiplied
  VkExtent2D extent{};
};

struct FluidFrame {
  graph::BufferHandle particles;
  uint32_t count = 0;
  graph::BufferHandle frame;     // frame uniforms
  graph::ImageHandle sky_cube;
  glm::mat4 proj{1.0f};          // the projection the frame uniforms hold
  VkExtent2D scene_extent{};     // of the scene targets
};

// The fluid extent for a scene extent: divided, rounded up, at least one pixel.
VkExtent2D fluid_extent(VkExtent2D scene, uint32_t divisor);

class FluidRenderer {
 public:
  explicit FluidRenderer(const Context& context);

  // Draws the fluid over `targets`; `images` (when given) receives the intermediates.
  SceneTargets add(graph::FrameGraph& graph, const SceneTargets& targets, const FluidFrame& frame,
                   const FluidSettings& settings, FluidImages* images = nullptr);

 private:
  FluidSpritePasses sprites_;
  FluidSmoothPass smooth_;
  FluidCompositePass composite_;
  FluidSprayPass spray_;
};

}  // namespace meniscus::passes
