#pragma once
// scene.background: clears the scene targets with the sky and the ground plane. It creates
// the HDR colour and depth images that every later scene pass draws into. Given the solids'
// sun shadow map (passes/solids), the ground receives their shadows; without one it is drawn
// exactly as it always was, by a pipeline that knows of no shadow map.
#include <memory>

#include "engine/core/pipeline.h"
#include "engine/graph/frame_graph.h"
#include "passes/solids/sun_shadow.h"

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
                   graph::BufferHandle frame, const SunShadow* shadow = nullptr);

 private:
  const Context& context_;
  Pipeline pipeline_;
  VkSampler sampler_;
  // Made on the first frame with a shadow map.
  std::unique_ptr<Pipeline> shadowed_;
  VkSampler shadow_sampler_ = VK_NULL_HANDLE;
};

}  // namespace meniscus::passes
