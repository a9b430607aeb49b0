#include "passes/surface/pyramid_passes.h"

#include "sim/histopyramid/mc_tables.h"

namespace meniscus::passes {
namespace {

// A pyramid shader's compute pipeline: `count` storage buffers, 64 bytes of push constants.
// `debug_name` is read while the pipeline is created, so a temporary in the caller's
// initialiser lives long enough.
ComputePipelineDesc pyramid_pipeline(const char* stem, uint32_t count, const std::string& debug_name) {
  return ComputePipelineDesc{std::string(stem) + ".comp",
                             std::vector<Binding>(count, Binding{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_SHADER_STAGE_COMPUTE_BIT}),
                             sizeof(PyramidConstants), debug_name.c_str()};
}

std::string surface_label(const char* stem) { return std::string("surface.") + stem; }

// Bindings 0-2 of every pyramid shader: the source, the pyramid, the case tables.
DescriptorWrites pyramid_writes(const graph::PassContext& ctx, const PyramidOutputs& o) {
  DescriptorWrites writes;
  writes.buffer(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ctx.buffer(o.source))
      .buffer(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ctx.buffer(o.pyramid))
      .buffer(2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ctx.buffer(o.tables));
  return writes;
}

void push(VkCommandBuffer cmd, const Pipeline& pipeline, const PyramidConstants& constants) {
  pipeline.push_constants(cmd, constants.bytes.data(), uint32_t(constants.bytes.size()));
}

}  // namespace

std::vector<uint32_t> packed_mc_tables() {
  static_assert(sim::mc::kMaxTriangles * 3 <= 36, "table stride too small");
  std::vector<uint32_t> out(256 * kMcTableStride, 0);
  for (int c = 0; c < 256; ++c) {
    const auto& entry = sim::mc::cases()[c];
    out[c * kMcTableStride] = entry.triangles;
    for (int i = 0; i < entry.triangles * 3; ++i) out[c * kMcTableStride + 1 + i] = entry.edges[i];
  }
  return out;
}

PyramidPasses::PyramidPasses(const Context& context, std::string name, const PyramidKind& kind, Buffer tables)
    : name_(std::move(name)),
      kind_(kind),
      tables_(std::move(tables)),
      count_(context, pyramid_pipeline(kind.count_shader, 3, surface_label(kind.count_shader))),
      reduce_(context, pyramid_pipeline(kind.reduce_shader, 3, surface_label(kind.reduce_shader))),
      indirect_(context, pyramid_pipeline(kind.indirect_shader, 4, surface_label(kind.indirect_shader))),
      extract_(context, pyramid_pipeline(kind.extract_shader, 5, surface_label(kind.extract_shader))) {}

PyramidOutputs PyramidPasses::add(graph::FrameGraph& graph, graph::BufferHandle source, uint64_t pyramid_bytes,
                                  const std::vector<PyramidLevel>& levels) const {
  PyramidOutputs out;
  out.source = source;
  out.constants = levels.at(0).constants;
  // Written once at start-up and never again: no pending access when a frame starts.
  out.tables = graph.import_buffer(name_ + ".mc_tables", {tables_.handle(), tables_.size(), graph::Access::None, graph::Access::None});

  graph.add_pass(name_ + "." + kind_.count_shader, [&](graph::PassBuilder& b) {
    b.read(out.source, graph::Access::ComputeStorageRead);
    b.read(out.tables, graph::Access::ComputeStorageRead);
    out.pyramid = b.write(b.create_buffer(name_ + "." + kind_.pyramid_buffer, {pyramid_bytes}), graph::Access::ComputeStorageWrite);
    const auto o = out;
    const PyramidLevel base = levels[0];
    return [this, o, base](graph::PassContext& ctx) {
      count_.bind(ctx.cmd);
      count_.push_descriptors(ctx.cmd, pyramid_writes(ctx, o));
      push(ctx.cmd, count_, base.constants);
      vkCmdDispatch(ctx.cmd, base.workgroups.x, base.workgroups.y, 1);
    };
  });

  if (levels.size() > 1)
    graph.add_pass(name_ + "." + kind_.reduce_shader, [&](graph::PassBuilder& b) {
      b.read(out.source, graph::Access::ComputeStorageRead);
      b.read(out.tables, graph::Access::ComputeStorageRead);
      out.pyramid = b.write(out.pyramid, graph::Access::ComputeStorageReadWrite);
      const auto o = out;
      return [this, o, levels](graph::PassContext& ctx) {
        reduce_.bind(ctx.cmd);
        reduce_.push_descriptors(ctx.cmd, pyramid_writes(ctx, o));
        for (size_t level = 1; level < levels.size(); ++level) {
          // Each level reads the one below, written by the previous dispatch of this pass.
          if (level > 1) {
            VkMemoryBarrier2 barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
            barrier.srcStageMask = barrier.dstStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
            barrier.srcAccessMask = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
            barrier.dstAccessMask = VK_ACCESS_2_SHADER_STORAGE_READ_BIT;
            VkDependencyInfo dependency{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
            dependency.memoryBarrierCount = 1;
            dependency.pMemoryBarriers = &barrier;
            vkCmdPipelineBarrier2(ctx.cmd, &dependency);
          }
          push(ctx.cmd, reduce_, levels[level].constants);
          vkCmdDispatch(ctx.cmd, levels[level].workgroups.x, levels[level].workgroups.y, 1);
        }
      };
    });

  graph.add_pass(name_ + "." + kind_.indirect_shader, [&](graph::PassBuilder& b) {
    b.read(out.source, graph::Access::ComputeStorageRead);
    b.read(out.tables, graph::Access::ComputeStorageRead);
    b.read(out.pyramid, graph::Access::ComputeStorageRead);
    out.indirect = b.write(b.create_buffer(name_ + ".draw_args", {16}), graph::Access::ComputeStorageWrite);
    const auto o = out;
    return [this, o](graph::PassContext& ctx) {
      DescriptorWrites writes = pyramid_writes(ctx, o);
      writes.buffer(3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ctx.buffer(o.indirect));
      indirect_.bind(ctx.cmd);
      indirect_.push_descriptors(ctx.cmd, writes);
      push(ctx.cmd, indirect_, o.constants);
      vkCmdDispatch(ctx.cmd, 1, 1, 1);
    };
  });
  return out;
}

graph::BufferHandle PyramidPasses::add_extract(graph::FrameGraph& graph, const PyramidOutputs& in, graph::BufferHandle vertices,
                                               uint32_t max_vertices) const {
  graph::BufferHandle written;
  graph.add_pass(name_ + "." + kind_.extract_shader, [&](graph::PassBuilder& b) {
    b.read(in.source, graph::Access::ComputeStorageRead);
    b.read(in.tables, graph::Access::ComputeStorageRead);
    b.read(in.pyramid, graph::Access::ComputeStorageRead);
    b.read(in.indirect, graph::Access::ComputeStorageRead);
    written = b.write(vertices, graph::Access::ComputeStorageWrite);
    return [this, in, written, max_vertices](graph::PassContext& ctx) {
      DescriptorWrites writes = pyramid_writes(ctx, in);
      writes.buffer(3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ctx.buffer(in.indirect))
          .buffer(4, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ctx.buffer(written));
      extract_.bind(ctx.cmd);
      extract_.push_descriptors(ctx.cmd, writes);
      push(ctx.cmd, extract_, in.constants);
      // The count lives on the GPU; the dispatch covers the buffer and the shader stops at it.
      vkCmdDispatch(ctx.cmd, (max_vertices + 63) / 64, 1, 1);
    };
  });
  return written;
}

}  // namespace meniscus::passes
