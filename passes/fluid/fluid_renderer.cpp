#include "passes/fluid/fluid_renderer.h"

#include <algorithm>

namespace meniscus::passes {

VkExtent2D fluid_extent(VkExtent2D scene, uint32_t divisor) {
  return {std::max(1u, (scene.width + divisor - 1) / divisor), std::max(1u, (scene.height + divisor - 1) / divisor)};
}

FluidRenderer::FluidRenderer(const Context& context)
    : sprites_(context), smooth_(context), composite_(context), spray_(context) {}

SceneTargets FluidRenderer::add(graph::FrameGraph& graph, const SceneTargets& targets, const FluidFrame& frame,
                                const FluidSettings& settings, FluidImages* images) {
  FluidImages out;
  out.extent = fluid_extent(frame.scene_extent, settings.resolution_divisor);
  const FluidSpriteInputs sprites{frame.particles, frame.count, frame.frame, targets.depth, out.extent};
  out.depth = sprites_.add_depth(graph, sprites, settings);
  out.smoothed = smooth_.add(graph, out.depth, out.extent, frame.proj, settings);
  out.thickness = sprites_.add_thickness(graph, sprites, settings);
  if (settings.foam) out.noise = sprites_.add_noise(graph, sprites, out.smoothed, settings);
  out.color = composite_.add_shade(graph,
                                   FluidShadeInputs{frame.frame, out.smoothed, out.thickness, out.noise,
                                                    targets.color, frame.sky_cube, out.extent, frame.proj},
                                   settings);
  SceneTargets result = composite_.add_upsample(graph, targets, out.color, out.smoothed, frame.frame);
  // Spray only exists when some density can fall below the threshold.
  if (settings.spray_density > 0.0f)
    result = spray_.add(graph, result, frame.particles, frame.count, frame.sky_cube, frame.frame, settings);
  if (images) *images = out;
  return result;
}

}  // namespace meniscus::passes
