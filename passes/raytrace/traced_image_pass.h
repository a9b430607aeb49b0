#pragma once
// raytrace.composite: a stage's ray-traced frame (sim/common/traced_image_stage.h), read from
// the SharedBuffer it was published into, drawn into the scene's HDR colour image fitted with
// its own aspect (bilinear), for the tonemap to finish like any other frame.
#include "engine/core/pipeline.h"
#include "engine/graph/frame_graph.h"

namespace meniscus::passes {

struct TracedImageBuffer {
  graph::BufferHandle buffer;  // width x height RGBA32F, row 0 at the top
  uint32_t width = 0, height = 0;
};

class TracedImagePass {
 public:
  explicit TracedImagePass(const Context& context);

  // Returns the scene colour image (kSceneColorFormat) of `extent`.
  graph::ImageHandle add(graph::FrameGraph& graph, const TracedImageBuffer& image, VkExtent2D extent);

 private:
  Pipeline pipeline_;
};

}  // namespace meniscus::passes
