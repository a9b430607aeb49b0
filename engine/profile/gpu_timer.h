#pragma once
// GPU timestamps around every frame-graph pass: one query pool per frame in flight, read back
// once that frame's fence has signalled (never stalls the GPU).
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
  GpuPassTimer(const Context& context, uint32_t frames_in_flight);
  ~GpuPassTimer() override;
  GpuPassTimer(const GpuPassTimer&) = delete;
  GpuPassTimer& operator=(const GpuPassTimer&) = delete;

  bool enabled() const { return valid_mask_ != 0; }

  // Resets the slot's queries at the start of its command buffer.
  void begin_frame(VkCommandBuffer cmd, uint32_t frame_slot);
  void begin_pass(VkCommandBuffer cmd, uint32_t slot, std::string_view name) override;
  void end_pass(VkCommandBuffer cmd, uint32_t slot, std::string_view name) override;
  // After the slot's fence: the passes recorded in it, in order.
  std::vector<PassSample> collect(uint32_t frame_slot);

 private:
  struct Frame {
    VkQueryPool pool = VK_NULL_HANDLE;
    uint32_t capacity = 0;  // passes
    std::vector<std::string> names;
  };
  void ensure_capacity(Frame& frame, uint32_t passes);

  const Context& context_;
  std::vector<Frame> frames_;
  uint32_t current_ = 0;
  uint64_t valid_mask_ = 0;
  double period_ns_ = 1.0;
};

}  // namespace meniscus::profile
