#pragma once
// scene.split: two renderings of the scene side by side in one frame, divided at a vertical
// line the user drags (a scene's [pass.split]: one stage drawn left, another right).
#include "engine/core/pipeline.h"
#include "engine/graph/frame_graph.h"

namespace meniscus::passes {

class SplitPass {
 public:
  explicit SplitPass(const Context& context);
  ~SplitPass();
  SplitPass(const SplitPass&) = delete;
  SplitPass& operator=(const SplitPass&) = delete;

  // A new HDR colour image: `left` left of `divider` (0..1 of the width), `right` beyond it.
  graph::ImageHandle add(graph::FrameGraph& graph, graph::ImageHandle left, graph::ImageHandle right, float divider);

 private:
  const Context& context_;
  Pipeline pipeline_;
  VkSampler sampler_;
};

}  // namespace meniscus::passes
