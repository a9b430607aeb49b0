#pragma once
// The fluid passes that splat particles as point sprites into fluid-resolution images:
//   fluid.depth      nearest sphere surface, view depth in R32F (0 = no fluid), depth tested
//   fluid.thickness  Eq. 5.9, summed chord lengths (additive), cut by the scene depth
//   fluid.noise      Eq. 5.10-5.12, one Perlin octave per particle (additive), needs the
//                    smoothed surface depth
// All three share one vertex shader (shaders/fluid_sprite.vert) and one push-constant block.
#include <cstdint>

#include "engine/core/pipeline.h"
#include "engine/graph/frame_graph.h"
#include "passes/fluid/fluid_settings.h"

namespace meniscus::passes {

inline constexpr VkFormat kFluidDepthFormat = VK_FORMAT_R32_SFLOAT;
// R32F, not R16F: the thickness test compares one particle with its analytic chord, and a sum
// of many half-float chords would lose that precision.
inline constexpr VkFormat kFluidScalarFormat = VK_FORMAT_R32_SFLOAT;

// Mirrors shaders/include/fluid_sprite.glsl.
struct FluidSpriteConstants {
  float radius;
  float spray_density;
  float scene_scale;
  float noise_amplitude;
  float agitation_threshold;
  float agitation_boost;
  float noise_frequency;
  float pad;
};
static_assert(sizeof(FluidSpriteConstants) == 32);

FluidSpriteConstants fluid_sprite_constants(const FluidSettings& settings);

// What every sprite pass draws from.
struct FluidSpriteInputs {
  graph::BufferHandle particles;
  uint32_t count = 0;
  graph::BufferHandle frame;
  graph::ImageHandle scene_depth;  // full resolution, sampled
  VkExtent2D extent{};             // fluid resolution
};

class FluidSpritePasses {
 public:
  explicit FluidSpritePasses(const Context& context);
  ~FluidSpritePasses();
  FluidSpritePasses(const FluidSpritePasses&) = delete;
  FluidSpritePasses& operator=(const FluidSpritePasses&) = delete;

  graph::ImageHandle add_depth(graph::FrameGraph& graph, const FluidSpriteInputs& in, const FluidSettings& settings);
  graph::ImageHandle add_thickness(graph::FrameGraph& graph, const FluidSpriteInputs& in, const FluidSettings& settings);
  graph::ImageHandle add_noise(graph::FrameGraph& graph, const FluidSpriteInputs& in, graph::ImageHandle surface,
                               const FluidSettings& settings);

 private:
  void draw(graph::PassContext& ctx, const Pipeline& pipeline, const FluidSpriteInputs& in,
            graph::ImageHandle sampled, const FluidSpriteConstants& constants) const;

  const Context& context_;
  Pipeline depth_;
  Pipeline thickness_;
  Pipeline noise_;
  VkSampler sampler_;
};

}  // namespace meniscus::passes
