#include "passes/particles/particles_pass.h"

#include "engine/core/context.h"
#include "passes/common/rendering.h"

#include <vector>

namespace meniscus::passes {
namespace {

struct ParticlesPushConstants {
  glm::vec4 color;  // a = speed tint
  float radius;
  float speed_scale;
};

}  // namespace

GraphicsPipelineDesc impostor_pipeline_desc(const char* vertex_shader, uint32_t push_constant_bytes,
                                            const char* debug_name) {
  return GraphicsPipelineDesc{
      .vertex_shader = vertex_shader,
      .fragment_shader = "particles.frag",
      .bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_SHADER_STAGE_VERTEX_BIT},
                   {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT},
                   {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_SHADER_STAGE_FRAGMENT_BIT}},
      .push_constant_bytes = push_constant_bytes,
      .color_formats = {kSceneColorFormat},
      .depth_format = kSceneDepthFormat,
      .depth_test = true,
      .depth_write = true,
      .depth_compare = VK_COMPARE_OP_LESS,
      .debug_name = debug_name};
}

ParticlesPass::ParticlesPass(const Context& context)
    : context_(context),
      pipeline_(context,
                impostor_pipeline_desc("particles.vert", sizeof(ParticlesPushConstants), "particles.impostors")),
      sampler_(create_sampler(context, Filter::Linear, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE)) {}

ParticlesPass::~ParticlesPass() { vkDestroySampler(context_.device(), sampler_, nullptr); }

SceneTargets ParticlesPass::add(graph::FrameGraph& graph, const SceneTargets& targets,
                                graph::BufferHandle particles, uint32_t count,
                                graph::ImageHandle sky_cube, graph::BufferHandle frame,
                                const ParticlesSettings& settings) {
  const ParticlesPushConstants constants{glm::vec4(settings.color, settings.speed_tint), settings.radius,
                                         settings.speed_scale};
  return add_impostor_pass(graph, "particles.impostors", pipeline_, sampler_, targets, particles, count, sky_cube, frame,
                           std::as_bytes(std::span(&constants, 1)));
}

SceneTargets add_impostor_pass(graph::FrameGraph& graph, const char* name, const Pipeline& pipeline, VkSampler sampler,
                               const SceneTargets& targets, graph::BufferHandle particles, uint32_t count,
                               graph::ImageHandle sky_cube, graph::BufferHandle frame,
                               std::span<const std::byte> push_constants) {
  SceneTargets out;
  graph.add_pass(name, [&](graph::PassBuilder& builder) {
    builder.read(particles, graph::Access::VertexStorageRead);
    builder.read(frame, graph::Access::VertexStorageRead);
    builder.read(sky_cube, graph::Access::FragmentSample);
    out.color = builder.write(targets.color, graph::Access::ColorAttachmentReadWrite);
    out.depth = builder.write(targets.depth, graph::Access::DepthAttachmentWrite);
    std::vector<std::byte> constants(push_constants.begin(), push_constants.end());
    return [&pipeline, sampler, out, particles, count, sky_cube, frame, constants](graph::PassContext& ctx) {
      begin_rendering(ctx.cmd, ctx.desc(out.color).extent, {{ctx.view(out.color), std::nullopt}},
                      DepthTarget{ctx.view(out.depth), VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, std::nullopt});
      DescriptorWrites writes;
      writes.buffer(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ctx.buffer(particles))
          .buffer(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ctx.buffer(frame))
          .image(2, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, ctx.view(sky_cube),
                 VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, sampler);
      pipeline.bind(ctx.cmd);
      pipeline.push_descriptors(ctx.cmd, writes);
      pipeline.push_constants(ctx.cmd, constants.data(), uint32_t(constants.size()));
      vkCmdDraw(ctx.cmd, 6 * count, 1, 0, 0);
      end_rendering(ctx.cmd);
    };
  });
  return out;
}

}  // namespace meniscus::passes
