#include "passes/fluid/fluid_spray_pass.h"

#include "engine/core/context.h"
#include "passes/common/rendering.h"
#include "passes/particles/particles_pass.h"

namespace meniscus::passes {
namespace {

// Mirrors shaders/fluid_spray.vert (its first 24 bytes are what particles.frag declares).
struct SprayConstants {
  glm::vec4 color;
  float radius;
  float speed_scale;
  float spray_density;
  float pad;
};

// Spray droplets are drawn smaller than the particles' fluid radius: they are what breaks off.
constexpr float kSprayRadiusScale = 0.5f;

}  // namespace

FluidSprayPass::FluidSprayPass(const Context& context)
    : context_(context),
      pipeline_(context, impostor_pipeline_desc("fluid_spray.vert", sizeof(SprayConstants), "fluid.spray")),
      sampler_(create_sampler(context, Filter::Linear, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE)) {}

FluidSprayPass::~FluidSprayPass() { vkDestroySampler(context_.device(), sampler_, nullptr); }

SceneTargets FluidSprayPass::add(graph::FrameGraph& graph, const SceneTargets& targets, graph::BufferHandle particles,
                                 uint32_t count, graph::ImageHandle sky_cube, graph::BufferHandle frame,
                                 const FluidSettings& settings) {
  SceneTargets out;
  graph.add_pass("fluid.spray", [&](graph::PassBuilder& builder) {
    builder.read(particles, graph::Access::VertexStorageRead);
    builder.read(frame, graph::Access::VertexStorageRead);
    builder.read(sky_cube, graph::Access::FragmentSample);
    out.color = builder.write(targets.color, graph::Access::ColorAttachmentReadWrite);
    out.depth = builder.write(targets.depth, graph::Access::DepthAttachmentWrite);
    const SprayConstants constants{glm::vec4(settings.spray_color, 0.0f), settings.radius * kSprayRadiusScale,
                                   1.0f, settings.spray_density, 0.0f};
    return [this, out, particles, count, sky_cube, frame, constants](graph::PassContext& ctx) {
      begin_rendering(ctx.cmd, ctx.desc(out.color).extent, {{ctx.view(out.color), std::nullopt}},
                      DepthTarget{ctx.view(out.depth), VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, std::nullopt});
      DescriptorWrites writes;
      writes.buffer(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ctx.buffer(particles))
          .buffer(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ctx.buffer(frame))
          .image(2, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, ctx.view(sky_cube),
                 VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, sampler_);
      pipeline_.bind(ctx.cmd);
      pipeline_.push_descriptors(ctx.cmd, writes);
      pipeline_.push_constants(ctx.cmd, constants);
      vkCmdDraw(ctx.cmd, 6 * count, 1, 0, 0);
      end_rendering(ctx.cmd);
    };
  });
  return out;
}

}  // namespace meniscus::passes
