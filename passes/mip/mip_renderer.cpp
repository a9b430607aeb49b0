#include "passes/mip/mip_renderer.h"

#include <algorithm>
#include <cstring>
#include <glm/gtc/matrix_transform.hpp>
#include <vector>

#include "engine/core/commands.h"
#include "engine/core/context.h"
#include "sim/mip/adjunction_pyramid.h"

namespace meniscus::passes {
namespace {

struct RayConstants {
  glm::vec4 origin, right, up, dir;
  glm::uvec4 dims;
  glm::uvec2 image_size;
};

struct ClearConstants {
  uint32_t count;
};

struct ProjectConstants {
  uint32_t first, count, axis, dilate;
  uint32_t width0, height0;
};

struct ExpandConstants {
  uint32_t level, width0, height0;
};

// A device-local storage buffer filled through a staging copy (set-up time only).
Buffer upload(const Context& context, const void* data, VkDeviceSize bytes, const char* name) {
  bytes = std::max<VkDeviceSize>(bytes, 16);  // an empty stream still binds a valid buffer
  Buffer staging(context, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryUse::Upload, "staging");
  std::memset(staging.mapped(), 0, bytes);
  if (data) std::memcpy(staging.mapped(), data, bytes);
  Buffer buffer(context, bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                MemoryUse::DeviceLocal, name);
  submit_and_wait(context, [&](VkCommandBuffer cmd) {
    VkBufferCopy region{0, 0, bytes};
    vkCmdCopyBuffer(cmd, staging.handle(), buffer.handle(), 1, &region);
  });
  return buffer;
}

Buffer upload_volume(const Context& context, const sim::mip::GreyVolume& volume) {
  const std::vector<uint32_t> voxels(volume.values.begin(), volume.values.end());
  return upload(context, voxels.data(), voxels.size() * sizeof(uint32_t), "mip.volume");
}

std::vector<Binding> storage_buffers(uint32_t count) {
  return std::vector<Binding>(count, {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_SHADER_STAGE_COMPUTE_BIT});
}

// Makes one dispatch's buffer writes visible to the next dispatch (same pass).
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

// Grid-stride loops in the shaders: enough groups to fill a GPU, never more than the work.
uint32_t groups_for(uint64_t items) { return uint32_t(std::clamp<uint64_t>((items + 255) / 256, 1, 4096)); }

// The image basis of a view along `axis` (as sim::mip::image_coordinates): u, v, and the ray.
glm::mat3 axis_basis(sim::mip::ViewAxis axis) {
  switch (axis) {
    case sim::mip::ViewAxis::X:
      return {{0, 1, 0}, {0, 0, 1}, {1, 0, 0}};
    case sim::mip::ViewAxis::Y:
      return {{1, 0, 0}, {0, 0, 1}, {0, 1, 0}};
    case sim::mip::ViewAxis::Z:
      break;
  }
  return {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
}

// The largest padded level-0 image over the three view axes, in bytes.
VkDeviceSize largest_image_bytes(glm::uvec3 padded) {
  const uint64_t xy = uint64_t(padded.x) * padded.y, xz = uint64_t(padded.x) * padded.z,
                 yz = uint64_t(padded.y) * padded.z;
  return VkDeviceSize(std::max({xy, xz, yz})) * 4;
}

}  // namespace

MipRenderer::MipRenderer(const Context& context, const sim::mip::GreyVolume& volume, uint32_t levels,
                         sim::SimBackend backend)
    : dims_(volume.dims),
      stream_(context, volume, levels, backend),
      volume_(upload_volume(context, volume)),
      refined_(context, largest_image_bytes(stream_.index().padded_dims),
               VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryUse::DeviceLocal,
               "mip.refined"),
      ray_cast_(context, ComputePipelineDesc{.shader = "mip_raycast.comp",
                                             .bindings = storage_buffers(2),
                                             .push_constant_bytes = sizeof(RayConstants),
                                             .debug_name = "mip.ray_cast"}),
      clear_(context, ComputePipelineDesc{.shader = "mip_clear.comp",
                                          .bindings = storage_buffers(1),
                                          .push_constant_bytes = sizeof(ClearConstants),
                                          .debug_name = "mip.clear"}),
      project_(context, ComputePipelineDesc{.shader = "mip_project.comp",
                                            .bindings = storage_buffers(2),
                                            .push_constant_bytes = sizeof(ProjectConstants),
                                            .debug_name = "mip.project"}),
      expand_(context, ComputePipelineDesc{.shader = "mip_expand.comp",
                                           .bindings = storage_buffers(1),
                                           .push_constant_bytes = sizeof(ExpandConstants),
                                           .debug_name = "mip.expand"}) {}

MipImageBuffer MipRenderer::add(graph::FrameGraph& graph, const MipSettings& settings) {
  if (settings.method == MipMethod::RayCast) return add_ray_cast(graph, settings);
  if (settings.method == MipMethod::Streaming && settings.refine_block > 0) return add_progressive(graph, settings);
  return add_pyramid(graph, settings);
}

MipImageBuffer MipRenderer::add_ray_cast(graph::FrameGraph& graph, const MipSettings& settings) {
  const glm::uvec2 size = sim::mip::image_size(dims_, settings.axis);
  MipImageBuffer image{{}, size.x, size.y, size.x};
  glm::mat3 basis = axis_basis(settings.axis);
  // Turn the view about the volume's centre: yaw about the image's up, then pitch about its right.
  const glm::mat3 yaw(glm::rotate(glm::mat4(1.0f), glm::radians(settings.yaw_degrees), basis[1]));
  basis = yaw * basis;
  const glm::mat3 pitch(glm::rotate(glm::mat4(1.0f), glm::radians(settings.pitch_degrees), basis[0]));
  basis = pitch * basis;
  const glm::vec3 centre = glm::vec3(dims_) * 0.5f;
  const float reach = glm::length(glm::vec3(dims_));  // starts every ray outside the box
  RayConstants constants{};
  constants.origin = glm::vec4(
      centre + basis[0] * (0.5f - 0.5f * float(size.x)) + basis[1] * (0.5f - 0.5f * float(size.y)) - basis[2] * reach,
      0.0f);
  constants.right = glm::vec4(basis[0], 0.0f);
  constants.up = glm::vec4(basis[1], 0.0f);
  constants.dir = glm::vec4(basis[2], 0.0f);
  constants.dims = glm::uvec4(dims_, 0u);
  constants.image_size = size;
  graph.add_pass("mip.ray_cast", [&](graph::PassBuilder& builder) {
    image.buffer = builder.write(builder.create_buffer("mip.image", {VkDeviceSize(size.x) * size.y * 4}),
                                 graph::Access::ComputeStorageWrite);
    return [this, target = image.buffer, constants, size](graph::PassContext& ctx) {
      DescriptorWrites writes;
      writes.buffer(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, volume_.handle())
          .buffer(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ctx.buffer(target));
      ray_cast_.bind(ctx.cmd);
      ray_cast_.push_descriptors(ctx.cmd, writes);
      ray_cast_.push_constants(ctx.cmd, constants);
      vkCmdDispatch(ctx.cmd, (size.x + 7) / 8, (size.y + 7) / 8, 1);
    };
  });
  return image;
}

MipImageBuffer MipRenderer::add_pyramid(graph::FrameGraph& graph, const MipSettings& settings) {
  const glm::uvec2 size = sim::mip::image_size(dims_, settings.axis);
  const sim::mip::StreamIndex& stream = stream_.index();
  const glm::uvec2 padded = sim::mip::image_size(stream.padded_dims, settings.axis);
  const uint32_t levels = stream.levels;
  uint64_t pixels = 0;  // every level's image
  for (uint32_t k = 0; k <= levels; ++k) pixels += uint64_t(padded.x >> k) * (padded.y >> k);
  const bool streaming = settings.method == MipMethod::Streaming;
  const uint32_t base = stream.base_count;
  const uint32_t details = streaming ? refinement_target(settings, stream) : stream.detail_count();
  // Streaming draws straight into level 0; per level, every level's image is needed.
  const uint64_t cleared = streaming ? uint64_t(padded.x) * padded.y : pixels;
  const uint32_t axis = uint32_t(settings.axis);
  MipImageBuffer image{{}, size.x, size.y, padded.x};
  graph.add_pass(streaming ? "mip.streaming" : "mip.multiresolution", [&](graph::PassBuilder& builder) {
    image.buffer = builder.write(builder.create_buffer("mip.levels", {VkDeviceSize(pixels) * 4}),
                                 graph::Access::ComputeStorageReadWrite);
    return [this, target = image.buffer, cleared, base, details, axis, padded, levels,
            streaming](graph::PassContext& ctx) {
      const VkBuffer levels_buffer = ctx.buffer(target);
      record_clear(ctx.cmd, levels_buffer, uint32_t(cleared));
      record_project(ctx.cmd, levels_buffer, 0, base + details, axis, /*squares=*/streaming, padded);
      if (streaming) return;

      DescriptorWrites one;
      one.buffer(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, levels_buffer);
      expand_.bind(ctx.cmd);
      expand_.push_descriptors(ctx.cmd, one);
      for (uint32_t k = levels; k-- > 0;) {
        compute_to_compute(ctx.cmd);
        expand_.push_constants(ctx.cmd, ExpandConstants{k, padded.x, padded.y});
        vkCmdDispatch(ctx.cmd, ((padded.x >> k) + 7) / 8, ((padded.y >> k) + 7) / 8, 1);
      }
    };
  });
  return image;
}

MipImageBuffer MipRenderer::add_progressive(graph::FrameGraph& graph, const MipSettings& settings) {
  const MipProgress::Step step = progress_.advance(settings, stream_.index());
  const glm::uvec2 size = sim::mip::image_size(dims_, settings.axis);
  const glm::uvec2 padded = sim::mip::image_size(stream_.index().padded_dims, settings.axis);
  // Between frames the image belongs to the refine pass: whatever read it last (the display,
  // a readback) is ordered before the next frame's writes by the barrier into that state.
  MipImageBuffer image{
      graph.import_buffer("mip.refined", {refined_.handle(), refined_.size(), graph::Access::ComputeStorageReadWrite,
                                          graph::Access::ComputeStorageReadWrite}),
      size.x, size.y, padded.x};
  if (!step.restart && step.count == 0) return image;  // refined as far as it goes: last frame's image
  const uint32_t base = stream_.index().base_count;
  // The stream is the base, then the details: a restart draws both in one contiguous range.
  const uint32_t first = step.restart ? 0 : base + step.first;
  const uint32_t count = step.restart ? base + step.count : step.count;
  const uint32_t cleared = step.restart ? padded.x * padded.y : 0;
  const uint32_t axis = uint32_t(settings.axis);
  graph.add_pass("mip.refine", [&](graph::PassBuilder& builder) {
    image.buffer = builder.write(image.buffer, graph::Access::ComputeStorageReadWrite);
    return [this, target = image.buffer, cleared, first, count, axis, padded](graph::PassContext& ctx) {
      const VkBuffer pixels = ctx.buffer(target);
      if (cleared) record_clear(ctx.cmd, pixels, cleared);
      record_project(ctx.cmd, pixels, first, count, axis, /*squares=*/true, padded);
    };
  });
  return image;
}

// Zeroes the first `count` values of `pixels`, ordered before the compute that follows.
void MipRenderer::record_clear(VkCommandBuffer cmd, VkBuffer pixels, uint32_t count) const {
  DescriptorWrites writes;
  writes.buffer(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, pixels);
  clear_.bind(cmd);
  clear_.push_descriptors(cmd, writes);
  clear_.push_constants(cmd, ClearConstants{count});
  vkCmdDispatch(cmd, groups_for(count), 1, 1);
  compute_to_compute(cmd);
}

// Maxes the stream's coefficients [first, first + count) into `pixels`: as 2^level squares into
// level 0 (streaming), or each into its own level's image (multiresolution).
void MipRenderer::record_project(VkCommandBuffer cmd, VkBuffer pixels, uint32_t first, uint32_t count, uint32_t axis,
                                 bool squares, glm::uvec2 padded) const {
  DescriptorWrites writes;
  writes.buffer(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, stream_.coefficients().buffer())
      .buffer(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, pixels);
  project_.bind(cmd);
  project_.push_descriptors(cmd, writes);
  project_.push_constants(cmd, ProjectConstants{first, count, axis, squares ? 1u : 0u, padded.x, padded.y});
  vkCmdDispatch(cmd, groups_for(count), 1, 1);
}

}  // namespace meniscus::passes
