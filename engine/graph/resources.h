#pragma once
// What the graph knows about a resource: its description, and for imported ones the real
// Vulkan object with the state it arrives in and must leave in.
#include <cstdint>

#include <vulkan/vulkan.h>

#include "engine/graph/access.h"

namespace meniscus::graph {

struct ImageDesc {
  VkFormat format = VK_FORMAT_UNDEFINED;
  VkExtent2D extent{0, 0};
  uint32_t layers = 1;
  uint32_t mip_levels = 1;
  bool cube = false;  // layers == 6; the default view is a cube view
};

struct BufferDesc {
  VkDeviceSize size = 0;
};

// A versioned reference: every write() returns the next version, so the order of accesses is
// explicit in the handles a pass holds (Filament's model).
struct ImageHandle {
  uint32_t index = UINT32_MAX;
  uint32_t version = 0;
  bool valid() const { return index != UINT32_MAX; }
};

struct BufferHandle {
  uint32_t index = UINT32_MAX;
  uint32_t version = 0;
  bool valid() const { return index != UINT32_MAX; }
};

struct ExternalImage {
  VkImage image = VK_NULL_HANDLE;
  VkImageView view = VK_NULL_HANDLE;
  ImageDesc desc;
  Access initial = Access::None;  // the state it arrives in
  Access final = Access::None;    // the state it must be left in
  VkImageView storage_view = VK_NULL_HANDLE;  // 2D-array view of a cube; defaults to view
};

struct ExternalBuffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceSize size = 0;
  Access initial = Access::None;
  Access final = Access::None;
};

}  // namespace meniscus::graph
