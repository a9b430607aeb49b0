#include "passes/raytrace/traced_image_pass.h"

#include <algorithm>
#include <glm/glm.hpp>

#include "passes/background/background_pass.h"
#include "passes/common/rendering.h"

namespace meniscus::passes {
namespace {

struct TracedImageConstants {
  glm::vec2 corner;
  float scale;
  uint32_t width, height;
};

}  // namespace

TracedImagePass::TracedImagePass(const Context& context)
    : pipeline_(context,
                GraphicsPipelineDesc{.vertex_shader = "fullscreen.vert",
                                     .fragment_shader = "traced_image.frag",
                                     .bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_SHADER_STAGE_FRAGMENT_BIT}},
                                     .push_constant_bytes = sizeof(TracedImageConstants),
                                     .color_formats = {kSceneColorFormat},
                                     .debug_name = "raytrace.composite"}) {}

graph::ImageHandle TracedImagePass::add(graph::FrameGraph& graph, const TracedImageBuffer& image, VkExtent2D extent) {
  graph::ImageHandle color;
  graph.add_pass("raytrace.composite", [&](graph::PassBuilder& builder) {
    builder.read(image.buffer, graph::Access::FragmentStorageRead);
    color = builder.write(builder.create_image("scene.color", {.format = kSceneColorFormat, .extent = extent}),
                          graph::Access::ColorAttachmentWrite);
    TracedImageConstants constants{};
    constants.width = image.width;
    constants.height = image.height;
    constants.scale = std::min(float(extent.width) / float(image.width), float(extent.height) / float(image.height));
    constants.corner = 0.5f * (glm::vec2(extent.width, extent.height) -
                               constants.scale * glm::vec2(image.width, image.height));
    return [this, source = image.buffer, color, constants, extent](graph::PassContext& ctx) {
      begin_rendering(ctx.cmd, extent, {{ctx.view(color), std::nullopt}}, std::nullopt);
      DescriptorWrites writes;
      writes.buffer(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ctx.buffer(source));
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
