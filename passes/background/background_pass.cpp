#include "passes/background/background_pass.h"

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

BackgroundPass::~BackgroundPass() { vkDestroySampler(context_.device(), sampler_, nullptr); }

SceneTargets BackgroundPass::add(graph::FrameGraph& graph, VkExtent2D extent,
                                 graph::ImageHandle sky_cube, graph::BufferHandle frame) {
  SceneTargets targets;
  graph.add_pass("scene.background", [&](graph::PassBuilder& builder) {
    builder.read(sky_cube, graph::Access::FragmentSample);
    builder.read(frame, graph::Access::FragmentStorageRead);
    targets.color = builder.write(builder.create_image("scene.color", {.format = kSceneColorFormat, .extent = extent}),
                                  graph::Access::ColorAttachmentWrite);
    targets.depth = builder.write(builder.create_image("scene.depth", {.format = kSceneDepthFormat, .extent = extent}),
                                  graph::Access::DepthAttachmentWrite);
    return [this, targets, sky_cube, frame](graph::PassContext& ctx) {
      begin_rendering(ctx.cmd, ctx.desc(targets.color).extent,
                      {{ctx.view(targets.color), VkClearColorValue{}}},
                      DepthTarget{ctx.view(targets.depth), VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, 1.0f});
      DescriptorWrites writes;
      writes.image(0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, ctx.view(sky_cube),
                   VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, sampler_)
          .buffer(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ctx.buffer(frame));
      pipeline_.bind(ctx.cmd);
      pipeline_.push_descriptors(ctx.cmd, writes);
      vkCmdDraw(ctx.cmd, 3, 1, 0, 0);
      end_rendering(ctx.cmd);
    };
  });
  return targets;
}

}  // namespace meniscus::passes
