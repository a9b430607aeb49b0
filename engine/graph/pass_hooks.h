#pragma once
// Called by the graph executor around every pass it records. The profiler implements this with
// GPU timestamps; the graph itself knows nothing about timing.
#include <cstdint>
#include <string_view>

#include <vulkan/vulkan.h>

namespace meniscus::graph {

class PassHooks {
 public:
  virtual ~PassHooks() = default;
  // `slot` is the pass's position in this frame's execution order (0, 1, 2, ...).
  virtual void begin_pass(VkCommandBuffer cmd, uint32_t slot, std::string_view name) = 0;
  virtual void end_pass(VkCommandBuffer cmd, uint32_t slot, std::string_view name) = 0;
};

}  // namespace meniscus::graph
