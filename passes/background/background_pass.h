#pragma once
// scene.background: clears the scene targets with the sky and the ground plane. It creates
// the HDR colour and depth images that every later scene pass draws into.
#include "engine/core/pipeline.h"
#include "engine/graph/frame_graph.h"

namespace meniscus::passes {

inline constexpr VkFormat kSceneColorFormat = VK_FORMAT_R16G16B16A16_SFLOAT;
inline constexpr VkFormat kSceneDepthFormat = VK_FORMAT_D32_SFLOAT;

struct SceneTargets {
  graph::ImageHandle color;
  graph::ImageHandle depth;
};

class BackgroundPass {
 public:
  explicit BackgroundPass(const Context& context);
  ~BackgroundPass();
  BackgroundPass(const BackgroundPass&) = delete;
  BackgroundPass& operator=(const BackgroundPass&) = delete;

  SceneTargets add(graph::FrameGraph& graph, VkExtent2D extent, graph::ImageHandle sky_cube,
                   graph::BufferHandle frame);

 private:
  const Context& context_;
  Pipeline pipeline_;
  VkSampler sampler_;
};

}  // namespace meniscus::passes
