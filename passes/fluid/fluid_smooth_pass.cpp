#include "passes/fluid/fluid_smooth_pass.h"

#include <algorithm>
#include <cmath>

#include "passes/fluid/fluid_sprite_passes.h"

namespace meniscus::passes {
namespace {

struct CurvatureFlowConstants {
  glm::vec2 c;
  float time_step;
  float edge;
};

struct SeparableConstants {
  glm::ivec2 direction;
  float radius_pixels;
  float sigma_scale;
  float range;
  float clamp_depth;
  uint32_t narrow_range;
  int32_t max_radius;
};

// Kernel half-width limit of the separable filters: at 1080p a close particle projects to tens
// of pixels, and an unbounded kernel would make the baseline arbitrarily slow.
constexpr int32_t kMaxFilterRadius = 24;

std::vector<Binding> two_images() {
  return {{VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_SHADER_STAGE_COMPUTE_BIT},
          {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_SHADER_STAGE_COMPUTE_BIT}};
}

// Makes one dispatch's image writes visible to the next dispatch's reads (same pass).
void compute_to_compute(VkCommandBuffer cmd) {
  VkMemoryBarrier2 barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
  barrier.srcStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
  barrier.srcAccessMask = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
  barrier.dstStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
  barrier.dstAccessMask = VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
  VkDependencyInfo info{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  info.memoryBarrierCount = 1;
  info.pMemoryBarriers = &barrier;
  vkCmdPipelineBarrier2(cmd, &info);
}

void dispatch(graph::PassContext& ctx, const Pipeline& pipeline, VkImageView src, VkImageView dst, VkExtent2D extent) {
  DescriptorWrites writes;
  writes.image(0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, src, VK_IMAGE_LAYOUT_GENERAL)
      .image(1, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, dst, VK_IMAGE_LAYOUT_GENERAL);
  pipeline.push_descriptors(ctx.cmd, writes);
  vkCmdDispatch(ctx.cmd, (extent.width + 7) / 8, (extent.height + 7) / 8, 1);
}

struct PingPong {
  graph::ImageHandle a, b;
};

PingPong declare_ping_pong(graph::PassBuilder& builder, graph::ImageHandle depth, VkExtent2D extent) {
  builder.read(depth, graph::Access::ComputeStorageRead);
  const graph::ImageDesc desc{.format = kFluidDepthFormat, .extent = extent};
  return {builder.write(builder.create_image("fluid.smooth_a", desc), graph::Access::ComputeStorageReadWrite),
          builder.write(builder.create_image("fluid.smooth_b", desc), graph::Access::ComputeStorageReadWrite)};
}

}  // namespace

glm::vec2 curvature_constants(const glm::mat4& proj, VkExtent2D extent) {
  return {2.0f / (float(extent.width) * std::abs(proj[0][0])), 2.0f / (float(extent.height) * std::abs(proj[1][1]))};
}

FluidSmoothPass::FluidSmoothPass(const Context& context)
    : curvature_flow_(context, ComputePipelineDesc{.shader = "fluid_curvature_flow.comp",
                                                   .bindings = two_images(),
                                                   .push_constant_bytes = sizeof(CurvatureFlowConstants),
                                                   .debug_name = "fluid.curvature_flow"}),
      separable_(context, ComputePipelineDesc{.shader = "fluid_separable.comp",
                                              .bindings = two_images(),
                                              .push_constant_bytes = sizeof(SeparableConstants),
                                              .debug_name = "fluid.separable"}) {}

graph::ImageHandle FluidSmoothPass::add(graph::FrameGraph& graph, graph::ImageHandle depth, VkExtent2D extent,
                                        const glm::mat4& proj, const FluidSettings& settings) {
  const uint32_t iterations = settings.effective_iterations();
  if (iterations == 0) return depth;
  if (settings.filter == FluidFilter::CurvatureFlow)
    return add_curvature_flow(graph, depth, extent, proj, settings, iterations);
  return add_separable(graph, depth, extent, proj, settings, iterations);
}

graph::ImageHandle FluidSmoothPass::add_curvature_flow(graph::FrameGraph& graph, graph::ImageHandle depth,
                                                       VkExtent2D extent, const glm::mat4& proj,
                                                       const FluidSettings& settings, uint32_t iterations) {
  graph::ImageHandle result;
  graph.add_pass("fluid.smooth", [&](graph::PassBuilder& builder) {
    const PingPong images = declare_ping_pong(builder, depth, extent);
    // Step i writes a (even i) or b (odd i); the last step's target is the result.
    result = iterations % 2 == 1 ? images.a : images.b;
    const CurvatureFlowConstants constants{curvature_constants(proj, extent), settings.time_step,
                                           settings.edge_threshold * settings.radius};
    return [this, depth, images, extent, iterations, constants](graph::PassContext& ctx) {
      curvature_flow_.bind(ctx.cmd);
      curvature_flow_.push_constants(ctx.cmd, constants);
      for (uint32_t i = 0; i < iterations; ++i) {
        if (i > 0) compute_to_compute(ctx.cmd);
        const VkImageView src = i == 0 ? ctx.view(depth) : i % 2 == 1 ? ctx.view(images.a) : ctx.view(images.b);
        const VkImageView dst = i % 2 == 0 ? ctx.view(images.a) : ctx.view(images.b);
        dispatch(ctx, curvature_flow_, src, dst, extent);
      }
    };
  });
  return result;
}

graph::ImageHandle FluidSmoothPass::add_separable(graph::FrameGraph& graph, graph::ImageHandle depth,
                                                  VkExtent2D extent, const glm::mat4& proj,
                                                  const FluidSettings& settings, uint32_t iterations) {
  graph::ImageHandle result;
  graph.add_pass("fluid.smooth", [&](graph::PassBuilder& builder) {
    const PingPong images = declare_ping_pong(builder, depth, extent);
    result = images.b;  // every iteration ends with the vertical pass into b
    const bool narrow = settings.filter == FluidFilter::NarrowRange;
    SeparableConstants constants{};
    constants.radius_pixels = settings.radius * std::abs(proj[0][0]) * float(extent.width) * 0.5f;
    constants.sigma_scale = settings.filter_sigma;
    // Bilateral: range sigma of one radius. Narrow range: ignore what lies more than the
    // discontinuity threshold behind, clamp what lies more than one radius in front.
    constants.range = narrow ? settings.edge_threshold * settings.radius : settings.radius;
    constants.clamp_depth = settings.radius;
    constants.narrow_range = narrow ? 1u : 0u;
    constants.max_radius = kMaxFilterRadius;
    return [this, depth, images, extent, iterations, constants](graph::PassContext& ctx) mutable {
      separable_.bind(ctx.cmd);
      for (uint32_t i = 0; i < iterations; ++i) {
        if (i > 0) compute_to_compute(ctx.cmd);
        constants.direction = {1, 0};
        separable_.push_constants(ctx.cmd, constants);
        dispatch(ctx, separable_, i == 0 ? ctx.view(depth) : ctx.view(images.b), ctx.view(images.a), extent);
        compute_to_compute(ctx.cmd);
        constants.direction = {0, 1};
        separable_.push_constants(ctx.cmd, constants);
        dispatch(ctx, separable_, ctx.view(images.a), ctx.view(images.b), extent);
      }
    };
  });
  return result;
}

}  // namespace meniscus::passes
