#include "passes/surface/surface_pass.h"

#include <algorithm>
#include <array>
#include <optional>

#include "engine/core/context.h"
#include "passes/common/rendering.h"

namespace meniscus::passes {
namespace {

// The pyramid's own 64 bytes (HistoPyramidParams or RecordPyramidParams), then the draw's.
struct SurfacePushConstants {
  PyramidConstants pyramid;
  glm::vec4 color;          // rgb, a = opacity
  glm::vec4 model_rows[3];  // volume -> world affine transform, row-major 3x4
};
static_assert(sizeof(SurfacePushConstants) == 128, "must fit lavapipe's 128-byte push constants");

GraphicsPipelineDesc surface_pipeline(bool blended, SurfaceSource source) {
  constexpr VkShaderStageFlags kVertex = VK_SHADER_STAGE_VERTEX_BIT;
  return GraphicsPipelineDesc{
      .vertex_shader = source == SurfaceSource::CubeRecords ? "surface_records.vert" : "surface.vert",
      .fragment_shader = "surface.frag",
      .bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kVertex},
                   {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kVertex},
                   {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kVertex},
                   {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kVertex | VK_SHADER_STAGE_FRAGMENT_BIT},
                   {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_SHADER_STAGE_FRAGMENT_BIT}},
      .push_constant_bytes = sizeof(SurfacePushConstants),
      .color_formats = {kSceneColorFormat},
      .depth_format = kSceneDepthFormat,
      .depth_test = true,
      .depth_write = !blended,
      .depth_compare = VK_COMPARE_OP_LESS,
      .blend = blended ? Blend::Alpha : Blend::None,
      .debug_name = blended ? "surface.blended" : "surface.opaque"};
}

}  // namespace

SurfacePass::SurfacePass(const Context& context, const sim::Volume& volume, const SurfaceSettings& settings,
                         SurfaceSource source, uint32_t frames_in_flight)
    : context_(context),
      settings_(settings),
      source_(source),
      opaque_(context, surface_pipeline(false, source)),
      blended_(context, surface_pipeline(true, source)),
      sampler_(create_sampler(context, Filter::Linear, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE)) {
  // Place the volume in the world: its centre at `position`, its largest extent `size` long,
  // its `up_axis` along +y (scans store the body axis as z).
  const glm::vec3 extent = volume.spacing * glm::vec3(volume.dims - 1u);
  const float scale = settings.size / std::max({extent.x, extent.y, extent.z});
  const glm::vec3 center = volume.origin + 0.5f * extent;
  // Columns are the images of x, y, z. "z": y -> -z, z -> y. "-z": y -> z, z -> -y.
  const glm::mat3 rotation = settings.up_axis == "z"    ? glm::mat3(1, 0, 0, 0, 0, -1, 0, 1, 0)
                             : settings.up_axis == "-z" ? glm::mat3(1, 0, 0, 0, 0, 1, 0, -1, 0)
                                                        : glm::mat3(1.0f);
  const glm::mat3 linear = rotation * scale;
  const glm::vec3 translation = settings.position - linear * center;
  for (int row = 0; row < 3; ++row)
    model_rows_[row] = glm::vec4(linear[0][row], linear[1][row], linear[2][row], translation[row]);
  for (const SurfaceLayer& layer : settings.layers) {
    if (source == SurfaceSource::CubeRecords) {
      record_pyramids_.push_back(std::make_unique<GpuRecordPyramid>(context, frames_in_flight, "surface." + layer.name));
      bound_records_.emplace_back(frames_in_flight);
    } else
      pyramids_.push_back(std::make_unique<GpuHistoPyramid>(context, volume, volume.origin, volume.spacing, "surface." + layer.name));
  }
}

glm::mat4 SurfacePass::box_to_world() const {
  glm::mat4 m(1.0f);
  for (int row = 0; row < 3; ++row)
    for (int column = 0; column < 4; ++column) m[column][row] = model_rows_[row][column];
  return m;
}

SurfacePass::~SurfacePass() { vkDestroySampler(context_.device(), sampler_, nullptr); }

void SurfacePass::update_records(uint32_t slot, size_t layer, const sim::CubeRecordSet& set, glm::vec3 origin,
                                 float voxel_size) {
  record_pyramids_.at(layer)->upload(slot, set, origin, voxel_size);
  bound_records_.at(layer).at(slot).reset();
}

void SurfacePass::use_record_buffer(uint32_t slot, size_t layer, const RecordBuffer& records, glm::vec3 voxel0,
                                    float voxel_size) {
  bound_records_.at(layer).at(slot) = BoundRecords{records, voxel0, voxel_size, true};
}

std::optional<PyramidOutputs> SurfacePass::add_pyramid(graph::FrameGraph& graph, size_t layer, uint32_t slot) {
  if (source_ != SurfaceSource::CubeRecords) return pyramids_[layer]->add(graph, settings_.layers[layer].iso);
  std::optional<BoundRecords>& bound = bound_records_[layer].at(slot);
  if (!bound) return record_pyramids_[layer]->add(graph, slot);
  const RecordBuffer& b = bound->buffer;
  // The import's name is scoped per view; the memory is the same, read-only here.
  const graph::Access produced = b.written_on_device ? graph::Access::None : graph::Access::HostWrite;
  const graph::BufferHandle records =
      graph.import_buffer("surface." + settings_.layers[layer].name + ".records", {b.buffer, b.size, produced, produced});
  const PyramidOutputs pyramid =
      record_pyramids_[layer]->add(graph, slot, {records, b.capacity, bound->voxel0, bound->voxel_size, bound->header_due});
  bound->header_due = false;
  return pyramid;
}

void SurfacePass::update_volume(const sim::Volume& volume) {
  context_.wait_idle();
  for (auto& pyramid : pyramids_) pyramid->update_volume(volume);
}

SceneTargets SurfacePass::add(graph::FrameGraph& graph, const SceneTargets& targets, graph::ImageHandle sky,
                              graph::BufferHandle frame, uint32_t slot) {
  SceneTargets current = targets;
  // Opaque layers first, then the translucent ones over them.
  for (const bool blended : {false, true}) {
    for (size_t i = 0; i < settings_.layers.size(); ++i) {
      const SurfaceLayer& layer = settings_.layers[i];
      if (!layer.visible || (layer.opacity < 1.0f) != blended) continue;
      // Either pyramid: its three buffers (bindings 0-2), its draw arguments, its push constants.
      const std::optional<PyramidOutputs> pyramid = add_pyramid(graph, i, slot);
      if (!pyramid) continue;  // no records: nothing crosses this frame
      const std::array<graph::BufferHandle, 3> sources{pyramid->source, pyramid->pyramid, pyramid->tables};
      const graph::BufferHandle indirect = pyramid->indirect;
      const SurfacePushConstants constants{
          pyramid->constants, glm::vec4(layer.color, layer.opacity), {model_rows_[0], model_rows_[1], model_rows_[2]}};
      const Pipeline* pipeline = blended ? &blended_ : &opaque_;
      SceneTargets out;
      graph.add_pass("surface." + layer.name + ".draw", [&](graph::PassBuilder& b) {
        b.read(indirect, graph::Access::IndirectRead);
        for (const graph::BufferHandle& source : sources) b.read(source, graph::Access::VertexStorageRead);
        b.read(frame, graph::Access::VertexStorageRead);
        b.read(sky, graph::Access::FragmentSample);
        out.color = b.write(current.color, graph::Access::ColorAttachmentReadWrite);
        out.depth = blended ? current.depth : b.write(current.depth, graph::Access::DepthAttachmentWrite);
        if (blended) b.read(current.depth, graph::Access::DepthAttachmentRead);
        return [this, sources, indirect, out, sky, frame, constants, pipeline, blended](graph::PassContext& ctx) {
          begin_rendering(ctx.cmd, ctx.desc(out.color).extent, {{ctx.view(out.color), std::nullopt}},
                          DepthTarget{ctx.view(out.depth),
                                      blended ? VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL : VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
                                      std::nullopt});
          DescriptorWrites writes;
          for (uint32_t b = 0; b < 3; ++b) writes.buffer(b, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ctx.buffer(sources[b]));
          writes.buffer(3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ctx.buffer(frame))
              .image(4, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, ctx.view(sky), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                     sampler_);
          pipeline->bind(ctx.cmd);
          pipeline->push_descriptors(ctx.cmd, writes);
          pipeline->push_constants(ctx.cmd, constants);
          vkCmdDrawIndirect(ctx.cmd, ctx.buffer(indirect), 0, 1, 16);
          end_rendering(ctx.cmd);
        };
      });
      current = out;
    }
  }
  return current;
}

}  // namespace meniscus::passes
