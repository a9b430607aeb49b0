#pragma once
// fluid.spray: particles below the density threshold, as lit sphere impostors over the scene
// (after the fluid surface, depth tested against it).
#include "engine/core/pipeline.h"
#include "engine/graph/frame_graph.h"
#include "passes/background/background_pass.h"
#include "passes/fluid/fluid_settings.h"

namespace meniscus::passes {

class FluidSprayPass {
 public:
  explicit FluidSprayPass(const Context& context);
  ~FluidSprayPass();
  FluidSprayPass(const FluidSprayPass&) = delete;
  FluidSprayPass& operator=(const FluidSprayPass&) = delete;

  SceneTargets add(graph::FrameGraph& graph, const SceneTargets& targets, graph::BufferHandle particles,
                   uint32_t count, graph::ImageHandle sky_cube, graph::BufferHandle frame,
                   const FluidSettings& settings);

 private:
  const Context& context_;
  Pipeline pipeline_;
  VkSampler sampler_;
};

}  // namespace meniscus::passes
