#pragma once
// fluid.smooth: smooths the fluid's view-depth image with the filter the settings pick:
//   curvature_flow  explicit Euler steps of screen-space curvature flow (Eq. 5.1-5.8)
//   bilateral       the thesis' baseline, separable bilateral Gaussian
//   narrow_range    Truong & Yuksel 2018, separable
// All iterations run inside one graph pass (ping-ponging two transient images with compute
// barriers between dispatches), so the pass's timestamps measure the whole filter.
#include <glm/glm.hpp>

#include "engine/core/pipeline.h"
#include "engine/graph/frame_graph.h"
#include "passes/fluid/fluid_settings.h"

namespace meniscus::passes {

// The C_x, C_y of Eq. 5.3-5.5 for an image of `extent` seen through projection `proj`.
glm::vec2 curvature_constants(const glm::mat4& proj, VkExtent2D extent);

class FluidSmoothPass {
 public:
  explicit FluidSmoothPass(const Context& context);

  // Returns the smoothed depth (the input itself when there is nothing to do).
  graph::ImageHandle add(graph::FrameGraph& graph, graph::ImageHandle depth, VkExtent2D extent,
                         const glm::mat4& proj, const FluidSettings& settings);

 private:
  graph::ImageHandle add_curvature_flow(graph::FrameGraph& graph, graph::ImageHandle depth, VkExtent2D extent,
                                        const glm::mat4& proj, const FluidSettings& settings, uint32_t iterations);
  graph::ImageHandle add_separable(graph::FrameGraph& graph, graph::ImageHandle depth, VkExtent2D extent,
                                   const glm::mat4& proj, const FluidSettings& settings, uint32_t iterations);

  Pipeline curvature_flow_;
  Pipeline separable_;
};

}  // namespace meniscus::passes
