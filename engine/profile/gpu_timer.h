#pragma once
// GPU timestamps around every frame-graph pass: one query pool per frame in flight, read back
// once that frame's fence has signalled (never stalls the GPU).
//
// Per frame slot, in one command buffer:
//   begin_frame(cmd, slot)   resets the slot's queries, writes the frame-start timestamp
//   begin_pass / end_pass    (called by the graph executor) a timestamp pair per pass
//   ... submit, wait for the slot's fence ...
//   collect(slot)            the passes of that frame, relative to its frame start
//
// Begin timestamps are written at TOP_OF_PIPE (as soon as the GPU reaches the command), end
// timestamps at BOTTOM_OF_PIPE (once all earlier work has finished). A pass's interval can
// therefore start while the previous pass is still draining: intervals may overlap, and a
// pass's time includes waiting on its own barriers. The frame's GPU time is last end minus
// first begin (or the frame start), not the sum of the passes.
//
// A frame with more passes than the pool holds does not lose any: extra passes go to overflow
// pools created (and host-reset: Vulkan 1.2 hostQueryReset, which Context enables) during
// recording, and the next begin_frame of any slot replaces them with one pool big enough.
#include <cstdint>
#include <string>
#include <vector>

#include <vulkan/vulkan.h>

#include "engine/graph/pass_hooks.h"
#include "engine/profile/timing_log.h"

namespace meniscus {
class Context;
}

namespace meniscus::profile {

class GpuPassTimer : public graph::PassHooks {
 public:
  static constexpr uint32_t kInitialPasses = 32;

  // Disabled (and says so once per process) when the queue has no timestamps
  // (timestamp_valid_bits == 0); every call is then a no-op and collect() returns nothing.
  GpuPassTimer(const Context& context, uint32_t frames_in_flight, uint32_t initial_passes = kInitialPasses);
  // The caller makes sure the GPU is done with every slot (fence or wait_idle) first.
  ~GpuPassTimer() override;
  GpuPassTimer(const GpuPassTimer&) = delete;
  GpuPassTimer& operator=(const GpuPassTimer&) = delete;

  bool enabled() const { return valid_bits_ != 0; }
  uint32_t frames_in_flight() const { return static_cast<uint32_t>(frames_.size()); }
  // Passes the slot's main pool holds (grows; overflow pools not counted).
  uint32_t capacity(uint32_t frame_slot) const { return frames_.at(frame_slot).capacity; }

  // At the start of the slot's command buffer, outside any render pass, after the slot's
  // previous submission has completed (its pools may be recreated here).
  void begin_frame(VkCommandBuffer cmd, uint32_t frame_slot);
  void begin_pass(VkCommandBuffer cmd, uint32_t slot, std::string_view name) override;
  void end_pass(VkCommandBuffer cmd, uint32_t slot, std::string_view name) override;
  // After the slot's fence: the passes recorded in it, in order, with begin/end relative to the
  // frame start. Reading does not consume: the next begin_frame of the slot does.
  std::vector<PassSample> collect(uint32_t frame_slot);

 private:
  struct Frame {
    VkQueryPool pool = VK_NULL_HANDLE;  // 1 + 2 * capacity queries: frame start, then pairs
    uint32_t capacity = 0;              // passes
    std::vector<VkQueryPool> overflow;  // each 2 * capacity queries, for passes past capacity
    std::vector<std::string> names;     // of the passes recorded, by slot
    bool started = false;               // begin_frame was called
  };
  struct Location {
    VkQueryPool pool;
    uint32_t first;  // the pass's begin query; end is first + 1
  };
  Frame& recording_frame(const char* call);
  Location locate(Frame& frame, uint32_t pass);  // creates overflow pools as needed
  VkQueryPool create_pool(uint32_t queries, bool host_reset);
  void destroy_pools(Frame& frame);

  const Context& context_;
  std::vector<Frame> frames_;
  uint32_t current_ = 0;
  uint32_t wanted_ = 0;  // most passes any frame recorded: every slot grows to this
  uint32_t valid_bits_ = 0;
  double period_ns_ = 1.0;
};

}  // namespace meniscus::profile
