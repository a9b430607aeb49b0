#include "passes/background/background_pass.h"

#include <optional>

#include "engine/core/context.h"
#include "passes/common/rendering.h"

namespace meniscus::passes {

BackgroundPass::BackgroundPass(const Context& context)
    : context_(context),
      pipeline_(context,
                GraphicsPipelineDesc{
                    .vertex_shader = "fullscreen.vert",
                    .fragment_shader = "background.frag",
                    .bindings = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_SHADER_STAGE_FRAGMENT_BIT},
                                 {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_SHADER_STAGE_FRAGMENT_BIT}},
                    .color_formats = {kSceneColorFormat},
                    .depth_format = kSceneDepthFormat,
                    // Every pixel is written (sky at depth 1), so the test is ALWAYS.
                    .depth_test = true,
                    .depth_write = true,
                    .depth_compare = VK_COMPARE_OP_ALWAYS,
                    .debug_name = "scene.background"}),
      sampler_(create_sampler(context, Filter::Linear, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE)) {}

BackgroundPass::~BackgroundPass() {
  vkDestroySampler(context_.device(), sampler_, nullptr);
  if (shadow_sampler_) vkDestroySampler(context_.device(), shadow_sampler_, nullptr);
}

SceneTargets BackgroundPass::add(graph::FrameGraph& graph, VkExtent2D extent,
                                 graph::ImageHandle sky_cube, graph::BufferHandle frame, const SunShadow* shadow) {
  if (shadow && !shadowed_) {
    shadowed_ = std::make_unique<Pipeline>(
        context_, GraphicsPipelineDesc{.vertex_shader = "fullscreen.vert",
                                       .fragment_shader = "background_shadowed.frag",
                                       .bindings = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_SHADER_STAGE_FRAGMENT_BIT},
                                                    {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_SHADER_STAGE_FRAGMENT_BIT},
                                                    {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_SHADER_STAGE_FRAGMENT_BIT}},
                                       .push_constant_bytes = sizeof(SunShadowConstants),
                                       .color_formats = {kSceneColorFormat},
                                       .depth_format = kSceneDepthFormat,
                                       .depth_test = true,
                                       .depth_write = true,
                                       .depth_compare = VK_COMPARE_OP_ALWAYS,
                                       .debug_name = "scene.background.shadowed"});
    shadow_sampler_ = create_shadow_sampler(context_);
  }
  SceneTargets targets;
  graph.add_pass("scene.background", [&](graph::PassBuilder& builder) {
    builder.read(sky_cube, graph::Access::FragmentSample);
    builder.read(frame, graph::Access::FragmentStorageRead);
    if (shadow) builder.read(shadow->map, graph::Access::FragmentSample);
    targets.color = builder.write(builder.create_image("scene.color", {.format = kSceneColorFormat, .extent = extent}),
                                  graph::Access::ColorAttachmentWrite);
    targets.depth = builder.write(builder.create_image("scene.depth", {.format = kSceneDepthFormat, .extent = extent}),
                                  graph::Access::DepthAttachmentWrite);
    const std::optional<SunShadow> sun_shadow = shadow ? std::optional<SunShadow>(*shadow) : std::nullopt;
    return [this, targets, sky_cube, frame, sun_shadow](graph::PassContext& ctx) {
      begin_rendering(ctx.cmd, ctx.desc(targets.color).extent,
                      {{ctx.view(targets.color), VkClearColorValue{}}},
                      DepthTarget{ctx.view(targets.depth), VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, 1.0f});
      DescriptorWrites writes;
      writes.image(0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, ctx.view(sky_cube),
                   VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, sampler_)
          .buffer(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ctx.buffer(frame));
      if (sun_shadow) {
        writes.image(2, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, ctx.view(sun_shadow->map),
                     VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL, shadow_sampler_);
        shadowed_->bind(ctx.cmd);
        shadowed_->push_descriptors(ctx.cmd, writes);
        shadowed_->push_constants(ctx.cmd, sun_shadow->constants);
      } else {
        pipeline_.bind(ctx.cmd);
        pipeline_.push_descriptors(ctx.cmd, writes);
      }
      vkCmdDraw(ctx.cmd, 3, 1, 0, 0);
      end_rendering(ctx.cmd);
    };
  });
  return targets;
}

}  // namespace meniscus::passes
