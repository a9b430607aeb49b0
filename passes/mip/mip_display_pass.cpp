#include "passes/mip/mip_display_pass.h"

#include <algorithm>

#include "passes/common/rendering.h"

namespace meniscus::passes {
namespace {

struct MipDisplayConstants {
  glm::vec2 corner, pixel_size;
  uint32_t stride, width, height, flip_v;
  float window_low, window_width;
  uint32_t decode_srgb;
};

// A little margin, so the image's edge reads as an edge.
constexpr float kFill = 0.95f;

}  // namespace

MipDisplayPass::MipDisplayPass(const Context& context, VkFormat output_format)
    : pipeline_(context,
                GraphicsPipelineDesc{.vertex_shader = "fullscreen.vert",
                                     .fragment_shader = "mip_display.frag",
                                     .bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_SHADER_STAGE_FRAGMENT_BIT}},
                                     .push_constant_bytes = sizeof(MipDisplayConstants),
                                     .color_formats = {output_format},
                                     .debug_name = "mip.display"}),
      decode_srgb_(output_format == VK_FORMAT_B8G8R8A8_SRGB || output_format == VK_FORMAT_R8G8B8A8_SRGB) {}

graph::ImageHandle MipDisplayPass::add(graph::FrameGraph& graph, const MipImageBuffer& image, graph::ImageHandle output,
                                       MipWindow window, glm::vec2 pixel_spacing, bool flip_vertical) {
  graph::ImageHandle written;
  graph.add_pass("mip.display", [&](graph::PassBuilder& builder) {
    builder.read(image.buffer, graph::Access::FragmentStorageRead);
    written = builder.write(output, graph::Access::ColorAttachmentWrite);
    MipDisplayConstants constants{};
    constants.stride = image.stride;
    constants.width = image.width;
    constants.height = image.height;
    constants.flip_v = flip_vertical ? 1u : 0u;
    constants.window_low = window.low;
    constants.window_width = std::max(window.width, 1e-6f);
    constants.decode_srgb = decode_srgb_ ? 1u : 0u;
    return [this, source = image.buffer, written, constants, image, pixel_spacing](graph::PassContext& ctx) mutable {
      const VkExtent2D extent = ctx.desc(written).extent;
      // Physical size of the image, scaled to fit the frame.
      const glm::vec2 physical = glm::vec2(image.width, image.height) * pixel_spacing;
      const float scale = kFill * std::min(float(extent.width) / physical.x, float(extent.height) / physical.y);
      constants.pixel_size = pixel_spacing * scale;
      constants.corner = 0.5f * (glm::vec2(extent.width, extent.height) - physical * scale);
      begin_rendering(ctx.cmd, extent, {{ctx.view(written), std::nullopt}}, std::nullopt);
      DescriptorWrites writes;
      writes.buffer(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ctx.buffer(source));
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
