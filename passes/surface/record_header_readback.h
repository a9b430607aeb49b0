#pragma once
// Capacity feedback for a record buffer (sim/histopyramid/cube_record_buffer.h) without a host
// wait: each frame a transfer pass copies the buffer's 32-byte header into a host-visible
// buffer of its frame slot, and the host reads it once the slot's fence says that frame is
// done, which it waits for anyway before recording the slot again. The owner of the record
// buffers grows them when `needed` exceeds the capacity.
//
// The price is one frame of latency: the frame that overflowed already drew the `count` records
// that fitted, and the next one or two (frames in flight) may too, until the grown buffer is in
// use. A surface that suddenly grows shows a truncated mesh for those frames, never a wrong one.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/buffer.h"
#include "engine/graph/frame_graph.h"
#include "sim/histopyramid/cube_record_buffer.h"

namespace meniscus::passes {

class RecordHeaderReadback {
 public:
  // `name` prefixes the pass and the imported buffer (`<name>.header_readback`).
  RecordHeaderReadback(const Context& context, uint32_t slots, std::string name);

  // Copies the header of `records` (readable by transfers) for the frame recorded on `slot`.
  // At most once per frame and slot: two copies into one buffer would race.
  void add(graph::FrameGraph& graph, uint32_t slot, graph::BufferHandle records);
  // The header the last frame recorded on `slot` copied, none before the first. Call it only
  // once that frame has completed (after the slot's fence) and before recording the slot again.
  std::optional<sim::CubeRecordHeader> last(uint32_t slot) const;

 private:
  struct Slot {
    Buffer header;  // created with the first copy: most pyramids are never fed a record buffer
    bool copied = false;
  };
  const Context& context_;
  std::string name_;
  std::vector<Slot> slots_;
};

}  // namespace meniscus::passes
