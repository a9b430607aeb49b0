#include "passes/surface/gpu_extraction.h"

#include <cstring>

#include "engine/core/buffer.h"
#include "engine/core/commands.h"
#include "engine/core/context.h"
#include "engine/graph/executor.h"
#include "engine/profile/gpu_timer.h"

namespace meniscus::passes {
namespace {

// Adds a copy of the pyramid's draw arguments into `count` (for the host).
void add_count_readback(graph::FrameGraph& graph, const HistoPyramidOutputs& built, const Buffer& count) {
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

GpuSoup extract_on_gpu(const Context& context, GpuHistoPyramid& pyramid, float iso) {
  graph::GraphExecutor executor(context, 1);
  profile::GpuPassTimer timer(context, 1);
  Buffer count(context, 16, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::Readback, "readback.count");
  auto run = [&](const std::function<void(graph::FrameGraph&)>& build) {
    graph::FrameGraph graph;
    build(graph);
    submit_and_wait(context, [&](VkCommandBuffer cmd) {
      timer.begin_frame(cmd, 0);
      executor.execute(graph, cmd, 0, &timer);
    });
  };

  run([&](graph::FrameGraph& graph) { add_count_readback(graph, pyramid.add(graph, iso), count); });
  count.invalidate();
  uint32_t vertices = 0;
  std::memcpy(&vertices, count.mapped(), sizeof(vertices));

  GpuSoup soup;
  if (vertices == 0) return soup;
  Buffer out(context, VkDeviceSize(vertices) * 32, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUse::Readback, "readback.vertices");
  run([&](graph::FrameGraph& graph) {
    const HistoPyramidOutputs built = pyramid.add(graph, iso);
    const graph::BufferHandle target =
        graph.import_buffer("readback.vertices", {out.handle(), out.size(), graph::Access::None, graph::Access::HostRead});
    pyramid.add_extract(graph, built, target, vertices);
  });
  for (const profile::PassSample& sample : timer.collect(0)) soup.gpu_ms += sample.gpu_ms;
  out.invalidate();
  const auto* data = static_cast<const glm::vec4*>(out.mapped());
  soup.positions.resize(vertices);
  soup.normals.resize(vertices);
  soup.edges.resize(vertices);
  for (uint32_t i = 0; i < vertices; ++i) {
    soup.positions[i] = glm::vec3(data[2 * i]);
    soup.normals[i] = glm::vec3(data[2 * i + 1]);
    uint32_t edge;
    std::memcpy(&edge, &data[2 * i].w, sizeof(edge));
    soup.edges[i] = edge;
  }
  return soup;
}

}  // namespace meniscus::passes
