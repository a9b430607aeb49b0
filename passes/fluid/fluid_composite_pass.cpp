#include "passes/fluid/fluid_composite_pass.h"

#include "engine/core/context.h"
#include "passes/common/rendering.h"
#include "passes/fluid/fluid_smooth_pass.h"

namespace meniscus::passes {
namespace {

// Mirrors the push constants of shaders/fluid_composite.frag.
struct ShadeConstants {
  glm::vec4 fluid_color;
  glm::vec4 absorption;
  glm::vec4 foam_color;
  glm::vec2 c;
  float edge;
  float shininess;
  float radius;
  uint32_t debug_view;
};

constexpr VkShaderStageFlags kFragment = VK_SHADER_STAGE_FRAGMENT_BIT;

}  // namespace

FluidCompositePass::FluidCompositePass(const Context& context)
    : context_(context),
      shade_(context, GraphicsPipelineDesc{.vertex_shader = "fullscreen.vert",
                                           .fragment_shader = "fluid_composite.frag",
                                           .bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kFragment},
                                                        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, kFragment},
                                                        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, kFragment},
                                                        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, kFragment},
                                                        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, kFragment},
                                                        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, kFragment}},
                                           .push_constant_bytes = sizeof(ShadeConstants),
                                           .color_formats = {kFluidColorFormat},
                                           .debug_name = "fluid.composite"}),
      upsample_(context, GraphicsPipelineDesc{.vertex_shader = "fullscreen.vert",
                                              .fragment_shader = "fluid_upsample.frag",
                                              .bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kFragment},
                                                           {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, kFragment},
                                                           {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, kFragment}},
                                              .color_formats = {kSceneColorFormat},
                                              .depth_format = kSceneDepthFormat,
                                              .depth_test = true,
                                              .depth_write = true,
                                              .depth_compare = VK_COMPARE_OP_LESS,
                                              .blend = Blend::Alpha,
                                              .debug_name = "fluid.upsample"}),
      nearest_(create_sampler(context, Filter::Nearest, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE)),
      linear_(create_sampler(context, Filter::Linear, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE)) {}

FluidCompositePass::~FluidCompositePass() {
  vkDestroySampler(context_.device(), nearest_, nullptr);
  vkDestroySampler(context_.device(), linear_, nullptr);
}

graph::ImageHandle FluidCompositePass::add_shade(graph::FrameGraph& graph, const FluidShadeInputs& in,
                                                 const FluidSettings& s) {
  graph::ImageHandle color;
  graph.add_pass("fluid.composite", [&](graph::PassBuilder& b) {
    b.read(in.frame, graph::Access::FragmentStorageRead);
    b.read(in.surface, graph::Access::FragmentSample);
    b.read(in.thickness, graph::Access::FragmentSample);
    if (in.noise.valid()) b.read(in.noise, graph::Access::FragmentSample);
    b.read(in.scene_color, graph::Access::FragmentSample);
    b.read(in.sky_cube, graph::Access::FragmentSample);
    color = b.write(b.create_image("fluid.color", {.format = kFluidColorFormat, .extent = in.extent}),
                    graph::Access::ColorAttachmentWrite);
    const bool foam = in.noise.valid();
    const ShadeConstants constants{glm::vec4(s.fluid_color, s.refraction),
                                   glm::vec4(s.absorption, s.specular),
                                   glm::vec4(s.foam_color, foam ? 1.0f + s.noise_amplitude : 0.0f),
                                   curvature_constants(in.proj, in.extent),
                                   s.edge_threshold * s.radius,
                                   s.shininess,
                                   s.radius,
                                   uint32_t(s.debug_view)};
    return [this, in, color, constants](graph::PassContext& ctx) {
      begin_rendering(ctx.cmd, in.extent, {{ctx.view(color), VkClearColorValue{}}}, std::nullopt);
      // Without foam the noise binding holds the thickness: never read (foam_color.a = 0), but
      // the binding must be valid.
      const graph::ImageHandle noise = in.noise.valid() ? in.noise : in.thickness;
      const VkImageLayout read = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
      DescriptorWrites writes;
      writes.buffer(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ctx.buffer(in.frame))
          .image(1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, ctx.view(in.surface), read, nearest_)
          .image(2, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, ctx.view(in.thickness), read, nearest_)
          .image(3, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, ctx.view(noise), read, nearest_)
          .image(4, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, ctx.view(in.scene_color), read, linear_)
          .image(5, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, ctx.view(in.sky_cube), read, linear_);
      shade_.bind(ctx.cmd);
      shade_.push_descriptors(ctx.cmd, writes);
      shade_.push_constants(ctx.cmd, constants);
      vkCmdDraw(ctx.cmd, 3, 1, 0, 0);
      end_rendering(ctx.cmd);
    };
  });
  return color;
}

SceneTargets FluidCompositePass::add_upsample(graph::FrameGraph& graph, const SceneTargets& scene,
                                              graph::ImageHandle color, graph::ImageHandle surface,
                                              graph::BufferHandle frame) {
  SceneTargets out;
  graph.add_pass("fluid.upsample", [&](graph::PassBuilder& b) {
    b.read(frame, graph::Access::FragmentStorageRead);
    b.read(color, graph::Access::FragmentSample);
    b.read(surface, graph::Access::FragmentSample);
    out.color = b.write(scene.color, graph::Access::ColorAttachmentReadWrite);
    out.depth = b.write(scene.depth, graph::Access::DepthAttachmentWrite);
    return [this, out, color, surface, frame](graph::PassContext& ctx) {
      begin_rendering(ctx.cmd, ctx.desc(out.color).extent, {{ctx.view(out.color), std::nullopt}},
                      DepthTarget{ctx.view(out.depth), VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, std::nullopt});
      const VkImageLayout read = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
      DescriptorWrites writes;
      writes.buffer(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ctx.buffer(frame))
          .image(1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, ctx.view(color), read, linear_)
          .image(2, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, ctx.view(surface), read, nearest_);
      upsample_.bind(ctx.cmd);
      upsample_.push_descriptors(ctx.cmd, writes);
      vkCmdDraw(ctx.cmd, 3, 1, 0, 0);
      end_rendering(ctx.cmd);
    };
  });
  return out;
}

}  // namespace meniscus::passes
