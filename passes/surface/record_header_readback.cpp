#include "passes/surface/record_header_readback.h"

#include <cstring>

namespace meniscus::passes {

RecordHeaderReadback::RecordHeaderReadback(const Context& context, uint32_t slots, std::string name)
    : context_(context), name_(std::move(name)), slots_(slots) {}

void RecordHeaderReadback::add(graph::FrameGraph& graph, uint32_t slot, graph::BufferHandle records) {
  Slot& s = slots_.at(slot);
  if (!s.header)
    s.header = Buffer(context_, sizeof(sim::CubeRecordHeader), VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::Readback,
                      "surface.record_header");
  // Nothing pending on it when a frame starts: the host read the last copy after the fence.
  graph::BufferHandle header = graph.import_buffer(
      name_ + ".record_header", {s.header.handle(), s.header.size(), graph::Access::None, graph::Access::HostRead});
  graph.add_pass(name_ + ".header_readback", [&](graph::PassBuilder& b) {
    b.read(records, graph::Access::TransferSrc);
    header = b.write(header, graph::Access::TransferDst);
    return [src = records, dst = header](graph::PassContext& ctx) {
      const VkBufferCopy region{0, 0, sizeof(sim::CubeRecordHeader)};
      vkCmdCopyBuffer(ctx.cmd, ctx.buffer(src), ctx.buffer(dst), 1, &region);
    };
  });
  s.copied = true;
}

std::optional<sim::CubeRecordHeader> RecordHeaderReadback::last(uint32_t slot) const {
  const Slot& s = slots_.at(slot);
  if (!s.copied) return std::nullopt;
  s.header.invalidate();
  sim::CubeRecordHeader header;
  std::memcpy(&header, s.header.mapped(), sizeof header);
  return header;
}

}  // namespace meniscus::passes
