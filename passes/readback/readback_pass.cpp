#include "passes/readback/readback_pass.h"

namespace meniscus::passes {

graph::BufferHandle add_readback(graph::FrameGraph& graph, graph::ImageHandle image,
                                 graph::BufferHandle destination) {
  graph::BufferHandle written;
  graph.add_pass("output.readback", [&](graph::PassBuilder& builder) {
    builder.read(image, graph::Access::TransferSrc);
    written = builder.write(destination, graph::Access::TransferDst);
    return [image, written](graph::PassContext& ctx) {
      const VkExtent2D extent = ctx.desc(image).extent;
      VkBufferImageCopy region{};
      region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
      region.imageExtent = {extent.width, extent.height, 1};
      vkCmdCopyImageToBuffer(ctx.cmd, ctx.image(image), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                             ctx.buffer(written), 1, &region);
    };
  });
  return written;
}

}  // namespace meniscus::passes
