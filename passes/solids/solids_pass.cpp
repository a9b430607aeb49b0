#include "passes/solids/solids_pass.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "engine/core/context.h"
#include "passes/common/rendering.h"

namespace meniscus::passes {
namespace {

constexpr VkShaderStageFlags kVertex = VK_SHADER_STAGE_VERTEX_BIT;
constexpr VkShaderStageFlags kFragment = VK_SHADER_STAGE_FRAGMENT_BIT;

// Mirrors the push constants of shaders/solids_glass.frag.
struct GlassConstants {
  uint32_t near_side;
};

GraphicsPipelineDesc scene_pipeline(const char* fragment_shader, std::vector<Binding> extra, uint32_t push_bytes,
                                    bool blended, const char* name) {
  std::vector<Binding> bindings{{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kVertex},
                                {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kVertex | kFragment},
                                {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, kFragment}};
  bindings.insert(bindings.end(), extra.begin(), extra.end());
  // No culling: glass picks its side in the shader, and the pipe's bore is seen from inside.
  return GraphicsPipelineDesc{.vertex_shader = "solids.vert",
                              .fragment_shader = fragment_shader,
                              .bindings = std::move(bindings),
                              .push_constant_bytes = push_bytes,
                              .color_formats = {kSceneColorFormat},
                              .depth_format = kSceneDepthFormat,
                              .depth_test = true,
                              .depth_write = !blended,
                              .depth_compare = VK_COMPARE_OP_LESS,
                              .blend = blended ? Blend::Alpha : Blend::None,
                              .debug_name = name};
}

}  // namespace

SolidsPass::SolidsPass(const Context& context, std::vector<SolidShape> shapes)
    : context_(context),
      shapes_(std::move(shapes)),
      mesh_(build_solids_mesh(shapes_)),
      vertices_(context, std::max<size_t>(mesh_.vertices.size(), 1) * sizeof(SolidVertex),
                VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUse::Upload, "solids.vertices"),
      shadow_(context, GraphicsPipelineDesc{.vertex_shader = "solids_shadow.vert",
                                            .bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kVertex},
                                                         {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kVertex}},
                                            .push_constant_bytes = sizeof(SunShadowConstants),
                                            .depth_format = kShadowMapFormat,
                                            .depth_test = true,
                                            .depth_write = true,
                                            .depth_compare = VK_COMPARE_OP_LESS,
                                            .debug_name = "solids.shadow"}),
      opaque_(context, scene_pipeline("solids_opaque.frag", {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, kFragment}},
                                      sizeof(SunShadowConstants), false, "solids.opaque")),
      glass_(context, scene_pipeline("solids_glass.frag", {}, sizeof(GlassConstants), true, "solids.glass")),
      linear_(create_sampler(context, Filter::Linear, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE)),
      shadow_sampler_(create_shadow_sampler(context)) {
  if (!mesh_.vertices.empty())
    std::memcpy(vertices_.mapped(), mesh_.vertices.data(), mesh_.vertices.size() * sizeof(SolidVertex));
}

SolidsPass::~SolidsPass() {
  vkDestroySampler(context_.device(), linear_, nullptr);
  vkDestroySampler(context_.device(), shadow_sampler_, nullptr);
}

// Written once by the host at construction; each pass imports it under its own name.
graph::BufferHandle SolidsPass::import_vertices(graph::FrameGraph& graph, const char* user) const {
  return graph.import_buffer(std::string("solids.vertices.") + user,
                             {vertices_.handle(), vertices_.size(), graph::Access::HostWrite, graph::Access::HostWrite});
}

SunShadow SolidsPass::add_shadow(graph::FrameGraph& graph, graph::BufferHandle frame) {
  SunShadow shadow;
  // Fitted to every solid, glass included: the tank is the scene's extent even when nothing in
  // it casts a shadow, and the receivers add the ground below it.
  shadow.constants = {glm::vec4(mesh_.bounds_min, 0.0f), glm::vec4(mesh_.bounds_max, 0.0f)};
  const graph::BufferHandle vertices = import_vertices(graph, "shadow");
  graph.add_pass("solids.shadow", [&](graph::PassBuilder& b) {
    b.read(vertices, graph::Access::VertexStorageRead);
    b.read(frame, graph::Access::VertexStorageRead);
    shadow.map = b.write(b.create_image("solids.shadow_map",
                                        {.format = kShadowMapFormat, .extent = {kShadowMapSize, kShadowMapSize}}),
                         graph::Access::DepthAttachmentWrite);
    return [this, map = shadow.map, vertices, frame, constants = shadow.constants](graph::PassContext& ctx) {
      begin_rendering(ctx.cmd, ctx.desc(map).extent, {},
                      DepthTarget{ctx.view(map), VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, 1.0f});
      if (mesh_.opaque_count > 0) {
        DescriptorWrites writes;
        writes.buffer(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ctx.buffer(vertices))
            .buffer(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ctx.buffer(frame));
        shadow_.bind(ctx.cmd);
        shadow_.push_descriptors(ctx.cmd, writes);
        shadow_.push_constants(ctx.cmd, constants);
        vkCmdDraw(ctx.cmd, mesh_.opaque_count, 1, 0, 0);
      }
      end_rendering(ctx.cmd);
    };
  });
  return shadow;
}

SceneTargets SolidsPass::add_opaque(graph::FrameGraph& graph, const SceneTargets& targets, graph::ImageHandle sky_cube,
                                    graph::BufferHandle frame, const SunShadow& shadow) {
  if (mesh_.vertices.empty()) return targets;
  SceneTargets out;
  const graph::BufferHandle vertices = import_vertices(graph, "opaque");
  graph.add_pass("solids.opaque", [&](graph::PassBuilder& b) {
    b.read(vertices, graph::Access::VertexStorageRead);
    b.read(frame, graph::Access::VertexStorageRead);
    b.read(sky_cube, graph::Access::FragmentSample);
    b.read(shadow.map, graph::Access::FragmentSample);
    out.color = b.write(targets.color, graph::Access::ColorAttachmentReadWrite);
    out.depth = b.write(targets.depth, graph::Access::DepthAttachmentWrite);
    return [this, out, vertices, frame, sky_cube, shadow](graph::PassContext& ctx) {
      begin_rendering(ctx.cmd, ctx.desc(out.color).extent, {{ctx.view(out.color), std::nullopt}},
                      DepthTarget{ctx.view(out.depth), VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, std::nullopt});
      // Both pipelines share bindings 0-2; the opaque one adds the shadow map.
      auto common = [&](DescriptorWrites& writes) -> DescriptorWrites& {
        return writes.buffer(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ctx.buffer(vertices))
            .buffer(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ctx.buffer(frame))
            .image(2, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, ctx.view(sky_cube),
                   VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, linear_);
      };
      if (mesh_.opaque_count > 0) {
        DescriptorWrites writes;
        common(writes).image(3, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, ctx.view(shadow.map),
                             VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL, shadow_sampler_);
        opaque_.bind(ctx.cmd);
        opaque_.push_descriptors(ctx.cmd, writes);
        opaque_.push_constants(ctx.cmd, shadow.constants);
        vkCmdDraw(ctx.cmd, mesh_.opaque_count, 1, 0, 0);
      }
      // The far glass after every opaque solid, so solids inside the tank hide it.
      if (mesh_.glass_count > 0) {
        DescriptorWrites writes;
        glass_.bind(ctx.cmd);
        glass_.push_descriptors(ctx.cmd, common(writes));
        glass_.push_constants(ctx.cmd, GlassConstants{0u});
        vkCmdDraw(ctx.cmd, mesh_.glass_count, 1, mesh_.opaque_count, 0);
      }
      end_rendering(ctx.cmd);
    };
  });
  return out;
}

SceneTargets SolidsPass::add_glass(graph::FrameGraph& graph, const SceneTargets& targets, graph::ImageHandle sky_cube,
                                   graph::BufferHandle frame) {
  if (mesh_.glass_count == 0) return targets;
  SceneTargets out{.color = {}, .depth = targets.depth};
  const graph::BufferHandle vertices = import_vertices(graph, "glass");
  graph.add_pass("solids.glass", [&](graph::PassBuilder& b) {
    b.read(vertices, graph::Access::VertexStorageRead);
    b.read(frame, graph::Access::VertexStorageRead);
    b.read(sky_cube, graph::Access::FragmentSample);
    b.read(targets.depth, graph::Access::DepthAttachmentRead);
    out.color = b.write(targets.color, graph::Access::ColorAttachmentReadWrite);
    return [this, out, vertices, frame, sky_cube](graph::PassContext& ctx) {
      begin_rendering(ctx.cmd, ctx.desc(out.color).extent, {{ctx.view(out.color), std::nullopt}},
                      DepthTarget{ctx.view(out.depth), VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL, std::nullopt});
      DescriptorWrites writes;
      writes.buffer(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ctx.buffer(vertices))
          .buffer(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ctx.buffer(frame))
          .image(2, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, ctx.view(sky_cube),
                 VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, linear_);
      glass_.bind(ctx.cmd);
      glass_.push_descriptors(ctx.cmd, writes);
      glass_.push_constants(ctx.cmd, GlassConstants{1u});
      vkCmdDraw(ctx.cmd, mesh_.glass_count, 1, mesh_.opaque_count, 0);
      end_rendering(ctx.cmd);
    };
  });
  return out;
}

}  // namespace meniscus::passes
