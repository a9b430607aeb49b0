#include "passes/tonemap/tonemap_pass.h"

#include "engine/core/context.h"
#include "passes/common/rendering.h"

namespace meniscus::passes {
namespace {

struct TonemapPushConstants {
  float exposure;
  uint32_t encode_srgb;
};

bool is_srgb(VkFormat format) {
  return format == VK_FORMAT_B8G8R8A8_SRGB || format == VK_FORMAT_R8G8B8A8_SRGB;
}

}  // namespace

TonemapPass::TonemapPass(const Context& context, VkFormat output_format)
    : context_(context),
      pipeline_(
          context,
          GraphicsPipelineDesc{.vertex_shader = "fullscreen.vert",
                               .fragment_shader = "tonemap.frag",
                               .bindings = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_SHADER_STAGE_FRAGMENT_BIT}},
                               .push_constant_bytes = sizeof(TonemapPushConstants),
                               .color_formats = {output_format},
                               .debug_name = "output.tonemap"}),
      sampler_(create_sampler(context, Filter::Nearest, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE)),
      // An sRGB target encodes in hardware; a UNORM one gets the encoding in the shader.
      encode_srgb_(!is_srgb(output_format)) {}

TonemapPass::~TonemapPass() { vkDestroySampler(context_.device(), sampler_, nullptr); }

graph::ImageHandle TonemapPass::add(graph::FrameGraph& graph, graph::ImageHandle scene_color,
                                    graph::ImageHandle output, float exposure) {
  graph::ImageHandle written;
  graph.add_pass("output.tonemap", [&](graph::PassBuilder& builder) {
    builder.read(scene_color, graph::Access::FragmentSample);
    written = builder.write(output, graph::Access::ColorAttachmentWrite);
    const TonemapPushConstants constants{exposure, encode_srgb_ ? 1u : 0u};
    return [this, scene_color, written, constants](graph::PassContext& ctx) {
      begin_rendering(ctx.cmd, ctx.desc(written).extent, {{ctx.view(written), std::nullopt}}, std::nullopt);
      DescriptorWrites writes;
      writes.image(0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, ctx.view(scene_color),
                   VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, sampler_);
      pipeline_.bind(ctx.cmd);
      pipeline_.push_descriptors(ctx.cmd, writes);
      pipeline_.push_constants(ctx.cmd, constants);
      vkCmdDraw(ctx.cmd, 3, 1, 0, 0);
      end_rendering(ctx.cmd);
    };
  });
  return written;
}

}  // namespace meniscus::passes
