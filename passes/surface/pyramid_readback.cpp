#include "passes/surface/pyramid_readback.h"

#include <cstring>

#include "engine/core/buffer.h"
#include "engine/core/commands.h"
#include "engine/core/context.h"
#include "engine/graph/executor.h"
#include "engine/profile/gpu_timer.h"

namespace meniscus::passes {
namespace {

// Adds a copy of the pyramid's draw arguments into `count` (for the host).
void add_count_readback(graph::FrameGraph& graph, const PyramidOutputs& built, const Buffer& count) {
  graph::BufferHandle args =
      graph.import_buffer("readback.count", {count.handle(), count.size(), graph::Access::None, graph::Access::HostRead});
  graph.add_pass("readback.count", [&](graph::PassBuilder& b) {
    b.read(built.indirect, graph::Access::TransferSrc);
    args = b.write(args, graph::Access::TransferDst);
    const auto src = built.indirect, dst = args;
    return [src, dst](graph::PassContext& ctx) {
      VkBufferCopy region{0, 0, 16};
      vkCmdCopyBuffer(ctx.cmd, ctx.buffer(src), ctx.buffer(dst), 1, &region);
    };
  });
}

}  // namespace

ReadBackVertices read_back_vertices(const Context& context, const PyramidPasses& passes,
                                    const std::function<PyramidOutputs(graph::FrameGraph&)>& build) {
  graph::GraphExecutor executor(context, 1);
  profile::GpuPassTimer timer(context, 1);
  Buffer count(context, 16, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::Readback, "readback.count");
  auto run = [&](const std::function<void(graph::FrameGraph&)>& record) {
    graph::FrameGraph graph;
    record(graph);
    submit_and_wait(context, [&](VkCommandBuffer cmd) {
      timer.begin_frame(cmd, 0);
      executor.execute(graph, cmd, 0, &timer);
    });
  };

  run([&](graph::FrameGraph& graph) { add_count_readback(graph, build(graph), count); });
  count.invalidate();
  uint32_t vertices = 0;
  std::memcpy(&vertices, count.mapped(), sizeof(vertices));

  ReadBackVertices read;
  if (vertices == 0) return read;
  Buffer out(context, VkDeviceSize(vertices) * 32, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUse::Readback, "readback.vertices");
  run([&](graph::FrameGraph& graph) {
    const PyramidOutputs built = build(graph);
    const graph::BufferHandle target =
        graph.import_buffer("readback.vertices", {out.handle(), out.size(), graph::Access::None, graph::Access::HostRead});
    passes.add_extract(graph, built, target, vertices);
  });
  for (const profile::PassSample& sample : timer.collect(0)) read.gpu_ms += sample.gpu_ms;
  out.invalidate();
  const auto* data = static_cast<const glm::vec4*>(out.mapped());
  read.positions.resize(vertices);
  read.normals.resize(vertices);
  read.tags.resize(vertices);
  for (uint32_t i = 0; i < vertices; ++i) {
    read.positions[i] = glm::vec3(data[2 * i]);
    read.normals[i] = glm::vec3(data[2 * i + 1]);
    std::memcpy(&read.tags[i], &data[2 * i].w, sizeof(uint32_t));
  }
  return read;
}

}  // namespace meniscus::passes
