#include "passes/fluid/fluid_sprite_passes.h"

#include "engine/core/context.h"
#include "engine/core/error.h"
#include "passes/background/background_pass.h"
#include "passes/common/rendering.h"

namespace meniscus::passes {
namespace {

std::vector<Binding> sprite_bindings() {
  return {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_SHADER_STAGE_VERTEX_BIT},
          {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT},
          {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_SHADER_STAGE_FRAGMENT_BIT}};
}

GraphicsPipelineDesc sprite_pipeline(const char* fragment, const char* name) {
  return GraphicsPipelineDesc{.vertex_shader = "fluid_sprite.vert",
                              .fragment_shader = fragment,
                              .bindings = sprite_bindings(),
                              .push_constant_bytes = sizeof(FluidSpriteConstants),
                              .color_formats = {kFluidScalarFormat},
                              .blend = Blend::Additive,
                              .debug_name = name};
}

// The lowest noise octave spans about 1.5 cycles across a sprite: finer than the particles,
// which is the point of the noise (section 5.3.4).
constexpr float kNoiseFrequency = 1.5f;

// Nearest in every respect: the shared Filter::Nearest sampler still interpolates between mip
// levels, which D32 (not linearly filterable on every device) forbids even with one level.
VkSampler create_point_sampler(const Context& context) {
  VkSamplerCreateInfo info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  info.magFilter = info.minFilter = VK_FILTER_NEAREST;
  info.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
  info.addressModeU = info.addressModeV = info.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  VkSampler sampler;
  VK_CHECK(vkCreateSampler(context.device(), &info, nullptr, &sampler));
  return sampler;
}

}  // namespace

FluidSpriteConstants fluid_sprite_constants(const FluidSettings& s) {
  return {s.radius,          s.spray_density,       float(s.resolution_divisor), s.noise_amplitude,
          s.agitation_threshold, s.agitation_boost, kNoiseFrequency,             0.0f};
}

FluidSpritePasses::FluidSpritePasses(const Context& context)
    : context_(context),
      depth_(context, GraphicsPipelineDesc{.vertex_shader = "fluid_sprite.vert",
                                           .fragment_shader = "fluid_depth.frag",
                                           .bindings = sprite_bindings(),
                                           .push_constant_bytes = sizeof(FluidSpriteConstants),
                                           .color_formats = {kFluidDepthFormat},
                                           .depth_format = kSceneDepthFormat,
                                           .depth_test = true,
                                           .depth_write = true,
                                           .depth_compare = VK_COMPARE_OP_LESS,
                                           .debug_name = "fluid.depth"}),
      thickness_(context, sprite_pipeline("fluid_thickness.frag", "fluid.thickness")),
      noise_(context, sprite_pipeline("fluid_noise.frag", "fluid.noise")),
      sampler_(create_point_sampler(context)) {}

FluidSpritePasses::~FluidSpritePasses() { vkDestroySampler(context_.device(), sampler_, nullptr); }

void FluidSpritePasses::draw(graph::PassContext& ctx, const Pipeline& pipeline, const FluidSpriteInputs& in,
                             graph::ImageHandle sampled, const FluidSpriteConstants& constants) const {
  DescriptorWrites writes;
  writes.buffer(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ctx.buffer(in.particles))
      .buffer(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ctx.buffer(in.frame))
      .image(2, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, ctx.view(sampled),
             ctx.desc(sampled).format == kSceneDepthFormat ? VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL
                                                           : VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
             sampler_);
  pipeline.bind(ctx.cmd);
  pipeline.push_descriptors(ctx.cmd, writes);
  pipeline.push_constants(ctx.cmd, constants);
  vkCmdDraw(ctx.cmd, 6 * in.count, 1, 0, 0);
}

graph::ImageHandle FluidSpritePasses::add_depth(graph::FrameGraph& graph, const FluidSpriteInputs& in,
                                                const FluidSettings& settings) {
  graph::ImageHandle depth;
  graph.add_pass("fluid.depth", [&](graph::PassBuilder& b) {
    b.read(in.particles, graph::Access::VertexStorageRead);
    b.read(in.frame, graph::Access::VertexStorageRead);
    b.read(in.scene_depth, graph::Access::FragmentSample);
    depth = b.write(b.create_image("fluid.depth", {.format = kFluidDepthFormat, .extent = in.extent}),
                    graph::Access::ColorAttachmentWrite);
    // The fluid's own depth buffer: the scene's stays untouched until the composite.
    const graph::ImageHandle zbuffer =
        b.write(b.create_image("fluid.zbuffer", {.format = kSceneDepthFormat, .extent = in.extent}),
                graph::Access::DepthAttachmentWrite);
    const FluidSpriteConstants constants = fluid_sprite_constants(settings);
    return [this, in, depth, zbuffer, constants](graph::PassContext& ctx) {
      begin_rendering(ctx.cmd, in.extent, {{ctx.view(depth), VkClearColorValue{}}},
                      DepthTarget{ctx.view(zbuffer), VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, 1.0f});
      draw(ctx, depth_, in, in.scene_depth, constants);
      end_rendering(ctx.cmd);
    };
  });
  return depth;
}

graph::ImageHandle FluidSpritePasses::add_thickness(graph::FrameGraph& graph, const FluidSpriteInputs& in,
                                                    const FluidSettings& settings) {
  graph::ImageHandle thickness;
  graph.add_pass("fluid.thickness", [&](graph::PassBuilder& b) {
    b.read(in.particles, graph::Access::VertexStorageRead);
    b.read(in.frame, graph::Access::VertexStorageRead);
    b.read(in.scene_depth, graph::Access::FragmentSample);
    thickness = b.write(b.create_image("fluid.thickness", {.format = kFluidScalarFormat, .extent = in.extent}),
                        graph::Access::ColorAttachmentWrite);
    const FluidSpriteConstants constants = fluid_sprite_constants(settings);
    return [this, in, thickness, constants](graph::PassContext& ctx) {
      begin_rendering(ctx.cmd, in.extent, {{ctx.view(thickness), VkClearColorValue{}}}, std::nullopt);
      draw(ctx, thickness_, in, in.scene_depth, constants);
      end_rendering(ctx.cmd);
    };
  });
  return thickness;
}

graph::ImageHandle FluidSpritePasses::add_noise(graph::FrameGraph& graph, const FluidSpriteInputs& in,
                                                graph::ImageHandle surface, const FluidSettings& settings) {
  graph::ImageHandle noise;
  graph.add_pass("fluid.noise", [&](graph::PassBuilder& b) {
    b.read(in.particles, graph::Access::VertexStorageRead);
    b.read(in.frame, graph::Access::VertexStorageRead);
    b.read(surface, graph::Access::FragmentSample);
    noise = b.write(b.create_image("fluid.noise", {.format = kFluidScalarFormat, .extent = in.extent}),
                    graph::Access::ColorAttachmentWrite);
    const FluidSpriteConstants constants = fluid_sprite_constants(settings);
    return [this, in, surface, noise, constants](graph::PassContext& ctx) {
      begin_rendering(ctx.cmd, in.extent, {{ctx.view(noise), VkClearColorValue{}}}, std::nullopt);
      draw(ctx, noise_, in, surface, constants);
      end_rendering(ctx.cmd);
    };
  });
  return noise;
}

}  // namespace meniscus::passes
