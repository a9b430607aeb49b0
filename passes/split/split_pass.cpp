#include "passes/split/split_pass.h"

#include "engine/core/context.h"
#include "passes/background/background_pass.h"
#include "passes/common/rendering.h"

namespace meniscus::passes {
namespace {

struct SplitPushConstants {
  float divider;
  float half_width;
};

}  // namespace

SplitPass::SplitPass(const Context& context)
    : context_(context),
      pipeline_(
          context,
          GraphicsPipelineDesc{.vertex_shader = "fullscreen.vert",
                               .fragment_shader = "split.frag",
                               .bindings = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_SHADER_STAGE_FRAGMENT_BIT},
                                            {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_SHADER_STAGE_FRAGMENT_BIT}},
                               .push_constant_bytes = sizeof(SplitPushConstants),
                               .color_formats = {kSceneColorFormat},
                               .debug_name = "scene.split"}),
      sampler_(create_sampler(context, Filter::Nearest, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE)) {}

SplitPass::~SplitPass() { vkDestroySampler(context_.device(), sampler_, nullptr); }

graph::ImageHandle SplitPass::add(graph::FrameGraph& graph, graph::ImageHandle left, graph::ImageHandle right,
                                  float divider) {
  graph::ImageHandle color;
  graph.add_pass("scene.split", [&](graph::PassBuilder& b) {
    b.read(left, graph::Access::FragmentSample);
    b.read(right, graph::Access::FragmentSample);
    const graph::ImageDesc desc = graph.resources()[left.index].image;
    color = b.write(b.create_image("scene.split_color", {.format = kSceneColorFormat, .extent = desc.extent}),
                    graph::Access::ColorAttachmentWrite);
    // One pixel either side of the divider, whatever the resolution.
    const SplitPushConstants constants{divider, 1.0f / float(desc.extent.width)};
    return [this, left, right, color, constants](graph::PassContext& ctx) {
      begin_rendering(ctx.cmd, ctx.desc(color).extent, {{ctx.view(color), std::nullopt}}, std::nullopt);
      DescriptorWrites writes;
      writes.image(0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, ctx.view(left), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                   sampler_);
      writes.image(1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, ctx.view(right), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                   sampler_);
      pipeline_.bind(ctx.cmd);
      pipeline_.push_descriptors(ctx.cmd, writes);
      pipeline_.push_constants(ctx.cmd, constants);
      vkCmdDraw(ctx.cmd, 3, 1, 0, 0);
      end_rendering(ctx.cmd);
    };
  });
  return color;
}

}  // namespace meniscus::passes
