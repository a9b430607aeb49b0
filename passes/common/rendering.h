#pragma once
// Dynamic-rendering boilerplate shared by the raster passes: begin with the attachments'
// load behaviour, and a viewport/scissor covering the whole target.
#include <optional>
#include <vector>

#include <vulkan/vulkan.h>

namespace meniscus::passes {

struct ColorTarget {
  VkImageView view;
  std::optional<VkClearColorValue> clear;  // none: load what is there
};

struct DepthTarget {
  VkImageView view;
  VkImageLayout layout;            // DEPTH_ATTACHMENT_OPTIMAL or DEPTH_READ_ONLY_OPTIMAL
  std::optional<float> clear;      // none: load what is there
};

void begin_rendering(VkCommandBuffer cmd, VkExtent2D extent, const std::vector<ColorTarget>& colors,
                     const std::optional<DepthTarget>& depth);
void end_rendering(VkCommandBuffer cmd);

}  // namespace meniscus::passes
