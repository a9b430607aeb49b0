#include "passes/surface/histopyramid_gpu.h"

#include <cstring>

#include "engine/core/commands.h"
#include "engine/core/context.h"
#include "engine/core/error.h"
#include "sim/histopyramid/mc_tables.h"

namespace meniscus::passes {
namespace {

constexpr uint32_t kTableStride = 37;  // triangle count, then up to 36 edge ids

std::vector<Binding> storage_bindings(uint32_t count) {
  return std::vector<Binding>(count, Binding{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_SHADER_STAGE_COMPUTE_BIT});
}

// A device-local buffer filled through a staging copy (set-up time only).
Buffer upload(const Context& context, const void* data, VkDeviceSize bytes, const char* name) {
  Buffer staging(context, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryUse::Upload, "staging");
  std::memcpy(staging.mapped(), data, bytes);
  Buffer buffer(context, bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                MemoryUse::DeviceLocal, name);
  submit_and_wait(context, [&](VkCommandBuffer cmd) {
    VkBufferCopy region{0, 0, bytes};
    vkCmdCopyBuffer(cmd, staging.handle(), buffer.handle(), 1, &region);
  });
  return buffer;
}

std::vector<uint32_t> packed_tables() {
  static_assert(sim::mc::kMaxTriangles * 3 <= 36, "table stride too small");
  std::vector<uint32_t> out(256 * kTableStride, 0);
  for (int c = 0; c < 256; ++c) {
    const auto& entry = sim::mc::cases()[c];
    out[c * kTableStride] = entry.triangles;
    for (int i = 0; i < entry.triangles * 3; ++i) out[c * kTableStride + 1 + i] = entry.edges[i];
  }
  return out;
}

// Bindings 0-2 of every histopyramid shader: the volume, the pyramid, the case tables.
DescriptorWrites pyramid_writes(const graph::PassContext& ctx, const HistoPyramidOutputs& o) {
  DescriptorWrites writes;
  writes.buffer(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ctx.buffer(o.volume))
      .buffer(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ctx.buffer(o.pyramid))
      .buffer(2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ctx.buffer(o.tables));
  return writes;
}

}  // namespace

GpuHistoPyramid::GpuHistoPyramid(const Context& context, const sim::Volume& volume, glm::vec3 origin, glm::vec3 spacing,
                                 std::string name)
    : context_(context),
      name_(std::move(name)),
      layout_(sim::FlatLayout::for_cells(volume.dims - 1u)),
      dims_(volume.dims),
      origin_(origin),
      spacing_(spacing),
      range_(volume.range()),
      volume_(upload(context, volume.values.data(), volume.values.size() * sizeof(float), "surface.volume")),
      tables_([&] {
        const auto tables = packed_tables();
        return upload(context, tables.data(), tables.size() * sizeof(uint32_t), "surface.mc_tables");
      }()),
      classify_(context, ComputePipelineDesc{"hp_classify.comp", storage_bindings(3), sizeof(HistoPyramidParams), "surface.hp_classify"}),
      reduce_(context, ComputePipelineDesc{"hp_reduce.comp", storage_bindings(3), sizeof(HistoPyramidParams), "surface.hp_reduce"}),
      indirect_(context, ComputePipelineDesc{"hp_indirect.comp", storage_bindings(4), sizeof(HistoPyramidParams), "surface.hp_indirect"}),
      extract_(context, ComputePipelineDesc{"hp_extract.comp", storage_bindings(5), sizeof(HistoPyramidParams), "surface.hp_extract"}) {
  for (uint32_t s = layout_.side / 2; s >= 1; s /= 2) {
    pyramid_texels_ += uint64_t(s) * s;
    ++levels_;
  }
  const uint64_t bytes = pyramid_texels_ * 16;
  if (bytes > context.limits().maxStorageBufferRange || volume.values.size() * 4 > context.limits().maxStorageBufferRange)
    throw InputError(volume.source + ": too large for one storage buffer on " + context.info().name);
}

HistoPyramidParams GpuHistoPyramid::params(float iso, uint32_t level) const {
  return {glm::uvec4(dims_, layout_.tiles_per_row), glm::uvec4(layout_.side, levels_, level, 0),
          glm::vec4(iso, spacing_), glm::vec4(origin_, 0.0f)};
}

void GpuHistoPyramid::update_volume(const sim::Volume& volume) {
  if (volume.dims != dims_) throw DeviceError(name_ + ": update_volume needs the dimensions the pyramid was built for");
  const VkDeviceSize bytes = volume.values.size() * sizeof(float);
  Buffer staging(context_, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryUse::Upload, "staging");
  std::memcpy(staging.mapped(), volume.values.data(), bytes);
  submit_and_wait(context_, [&](VkCommandBuffer cmd) {
    VkBufferCopy region{0, 0, bytes};
    vkCmdCopyBuffer(cmd, staging.handle(), volume_.handle(), 1, &region);
  });
  range_ = volume.range();
}

HistoPyramidOutputs GpuHistoPyramid::add(graph::FrameGraph& graph, float iso) {
  HistoPyramidOutputs out;
  out.iso = iso;
  // Uploaded once and never written again: no pending access when a frame starts.
  out.volume = graph.import_buffer(name_ + ".volume", {volume_.handle(), volume_.size(), graph::Access::None, graph::Access::None});
  out.tables = graph.import_buffer(name_ + ".mc_tables", {tables_.handle(), tables_.size(), graph::Access::None, graph::Access::None});

  graph.add_pass(name_ + ".hp_classify", [&](graph::PassBuilder& b) {
    b.read(out.volume, graph::Access::ComputeStorageRead);
    b.read(out.tables, graph::Access::ComputeStorageRead);
    out.pyramid = b.write(b.create_buffer(name_ + ".pyramid", {pyramid_texels_ * 16}), graph::Access::ComputeStorageWrite);
    const auto o = out;
    const HistoPyramidParams p = params(iso);
    return [this, o, p](graph::PassContext& ctx) {
      DescriptorWrites writes = pyramid_writes(ctx, o);
      classify_.bind(ctx.cmd);
      classify_.push_descriptors(ctx.cmd, writes);
      classify_.push_constants(ctx.cmd, p);
      const uint32_t level_side = layout_.side / 2;
      vkCmdDispatch(ctx.cmd, (level_side + 7) / 8, (level_side + 7) / 8, 1);
    };
  });

  graph.add_pass(name_ + ".hp_reduce", [&](graph::PassBuilder& b) {
    b.read(out.volume, graph::Access::ComputeStorageRead);
    b.read(out.tables, graph::Access::ComputeStorageRead);
    out.pyramid = b.write(out.pyramid, graph::Access::ComputeStorageReadWrite);
    const auto o = out;
    return [this, o, iso](graph::PassContext& ctx) {
      DescriptorWrites writes = pyramid_writes(ctx, o);
      reduce_.bind(ctx.cmd);
      reduce_.push_descriptors(ctx.cmd, writes);
      for (uint32_t level = 1; level < levels_; ++level) {
        // Each level reads the one below, written by the previous dispatch of this pass.
        VkMemoryBarrier2 barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
        barrier.srcStageMask = barrier.dstStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
        barrier.srcAccessMask = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
        barrier.dstAccessMask = VK_ACCESS_2_SHADER_STORAGE_READ_BIT;
        VkDependencyInfo dependency{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
        dependency.memoryBarrierCount = 1;
        dependency.pMemoryBarriers = &barrier;
        if (level > 1) vkCmdPipelineBarrier2(ctx.cmd, &dependency);
        reduce_.push_constants(ctx.cmd, params(iso, level));
        const uint32_t level_side = layout_.side >> (level + 1);
        vkCmdDispatch(ctx.cmd, (level_side + 7) / 8, (level_side + 7) / 8, 1);
      }
    };
  });

  graph.add_pass(name_ + ".hp_indirect", [&](graph::PassBuilder& b) {
    b.read(out.volume, graph::Access::ComputeStorageRead);
    b.read(out.tables, graph::Access::ComputeStorageRead);
    b.read(out.pyramid, graph::Access::ComputeStorageRead);
    out.indirect = b.write(b.create_buffer(name_ + ".draw_args", {16}), graph::Access::ComputeStorageWrite);
    const auto o = out;
    const HistoPyramidParams p = params(iso);
    return [this, o, p](graph::PassContext& ctx) {
      DescriptorWrites writes = pyramid_writes(ctx, o);
      writes.buffer(3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ctx.buffer(o.indirect));
      indirect_.bind(ctx.cmd);
      indirect_.push_descriptors(ctx.cmd, writes);
      indirect_.push_constants(ctx.cmd, p);
      vkCmdDispatch(ctx.cmd, 1, 1, 1);
    };
  });
  return out;
}

graph::BufferHandle GpuHistoPyramid::add_extract(graph::FrameGraph& graph, const HistoPyramidOutputs& in,
                                                 graph::BufferHandle vertices, uint32_t max_vertices) {
  graph::BufferHandle written;
  graph.add_pass(name_ + ".hp_extract", [&](graph::PassBuilder& b) {
    b.read(in.volume, graph::Access::ComputeStorageRead);
    b.read(in.tables, graph::Access::ComputeStorageRead);
    b.read(in.pyramid, graph::Access::ComputeStorageRead);
    b.read(in.indirect, graph::Access::ComputeStorageRead);
    written = b.write(vertices, graph::Access::ComputeStorageWrite);
    const HistoPyramidParams p = params(in.iso);
    return [this, in, written, p, max_vertices](graph::PassContext& ctx) {
      DescriptorWrites writes = pyramid_writes(ctx, in);
      writes.buffer(3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ctx.buffer(in.indirect))
          .buffer(4, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ctx.buffer(written));
      extract_.bind(ctx.cmd);
      extract_.push_descriptors(ctx.cmd, writes);
      extract_.push_constants(ctx.cmd, p);
      // The count lives on the GPU; the dispatch covers the buffer and the shader stops at it.
      vkCmdDispatch(ctx.cmd, (max_vertices + 63) / 64, 1, 1);
    };
  });
  return written;
}

}  // namespace meniscus::passes
