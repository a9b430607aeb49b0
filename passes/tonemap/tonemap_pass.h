#pragma once
// output.tonemap: HDR scene colour to the 8-bit output image (offscreen target or swapchain).
#include "engine/core/pipeline.h"
#include "engine/graph/frame_graph.h"

namespace meniscus::passes {

class TonemapPass {
 public:
  // `output_format` is the format of the images `add` will be given (one pipeline per format).
  TonemapPass(const Context& context, VkFormat output_format);
  ~TonemapPass();
  TonemapPass(const TonemapPass&) = delete;
  TonemapPass& operator=(const TonemapPass&) = delete;

  graph::ImageHandle add(graph::FrameGraph& graph, graph::ImageHandle scene_color,
                         graph::ImageHandle output, float exposure);

 private:
  const Context& context_;
  Pipeline pipeline_;
  VkSampler sampler_;
  bool encode_srgb_;
};

}  // namespace meniscus::passes
