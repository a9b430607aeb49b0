#pragma once
// What a pass's recorder sees: the command buffer and the physical objects behind its handles.
#include <vector>

#include <vulkan/vulkan.h>

#include "engine/graph/resources.h"

namespace meniscus {
class Context;
}

namespace meniscus::graph {

struct PhysicalResource {
  VkImage image = VK_NULL_HANDLE;
  VkImageView view = VK_NULL_HANDLE;
  VkImageView storage_view = VK_NULL_HANDLE;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceSize size = 0;
  ImageDesc desc;
};

class PassContext {
 public:
  PassContext(VkCommandBuffer command_buffer, const Context& ctx,
              const std::vector<PhysicalResource>& physical)
      : cmd(command_buffer), context(ctx), physical_(physical) {}

  VkCommandBuffer cmd;
  const Context& context;

  VkImage image(ImageHandle h) const { return physical_[h.index].image; }
  // 2D, 2D array (layers > 1) or cube view, as the description says.
  VkImageView view(ImageHandle h) const { return physical_[h.index].view; }
  // For storage writes: a 2D-array view of a cube image, else the default view.
  VkImageView storage_view(ImageHandle h) const { return physical_[h.index].storage_view; }
  const ImageDesc& desc(ImageHandle h) const { return physical_[h.index].desc; }
  VkBuffer buffer(BufferHandle h) const { return physical_[h.index].buffer; }
  VkDeviceSize size(BufferHandle h) const { return physical_[h.index].size; }

 private:
  const std::vector<PhysicalResource>& physical_;
};

}  // namespace meniscus::graph
