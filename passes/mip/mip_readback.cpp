#include "passes/mip/mip_readback.h"

#include <cstring>

#include "engine/core/commands.h"
#include "engine/graph/executor.h"

namespace meniscus::passes {

MipReadback::MipReadback(const Context& context, graph::FrameGraph& graph, const MipImageBuffer& image)
    : image_(image) {
  const VkDeviceSize bytes = VkDeviceSize(image.stride) * image.height * 4;
  host_ =
      std::make_unique<Buffer>(context, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::Readback, "mip.readback");
  const graph::BufferHandle imported =
      graph.import_buffer("mip.readback_host", {host_->handle(), bytes, graph::Access::None, graph::Access::HostRead});
  graph.add_pass("mip.readback", [&](graph::PassBuilder& builder) {
    builder.read(image.buffer, graph::Access::TransferSrc);
    const graph::BufferHandle target = builder.write(imported, graph::Access::TransferDst);
    return [source = image.buffer, target, bytes](graph::PassContext& ctx) {
      const VkBufferCopy region{0, 0, bytes};
      vkCmdCopyBuffer(ctx.cmd, ctx.buffer(source), ctx.buffer(target), 1, &region);
    };
  });
}

sim::mip::MipImage MipReadback::finish() {
  host_->invalidate();
  sim::mip::MipImage out{image_.width, image_.height, std::vector<uint32_t>(size_t(image_.width) * image_.height)};
  const auto* pixels = static_cast<const uint32_t*>(host_->mapped());
  for (uint32_t v = 0; v < image_.height; ++v)
    std::memcpy(&out.values[size_t(v) * image_.width], pixels + size_t(v) * image_.stride, image_.width * 4);
  return out;
}

sim::mip::MipImage render_mip_image(const Context& context, MipRenderer& renderer, const MipSettings& settings) {
  graph::GraphExecutor executor(context, 1);
  graph::FrameGraph graph;
  MipReadback readback(context, graph, renderer.add(graph, settings));
  submit_and_wait(context, [&](VkCommandBuffer cmd) { executor.execute(graph, cmd, nullptr); });
  return readback.finish();
}

}  // namespace meniscus::passes
