#include "passes/common/rendering.h"

namespace meniscus::passes {

void begin_rendering(VkCommandBuffer cmd, VkExtent2D extent, const std::vector<ColorTarget>& colors,
                     const std::optional<DepthTarget>& depth) {
  std::vector<VkRenderingAttachmentInfo> color_infos;
  for (const ColorTarget& target : colors) {
    VkRenderingAttachmentInfo info{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    info.imageView = target.view;
    info.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    info.loadOp = target.clear ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_LOAD;
    info.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    if (target.clear) info.clearValue.color = *target.clear;
    color_infos.push_back(info);
  }
  VkRenderingAttachmentInfo depth_info{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  if (depth) {
    depth_info.imageView = depth->view;
    depth_info.imageLayout = depth->layout;
    depth_info.loadOp = depth->clear ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_LOAD;
    depth_info.storeOp = depth->layout == VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL
                             ? VK_ATTACHMENT_STORE_OP_NONE
                             : VK_ATTACHMENT_STORE_OP_STORE;
    if (depth->clear) depth_info.clearValue.depthStencil = {*depth->clear, 0};
  }

  VkRenderingInfo info{VK_STRUCTURE_TYPE_RENDERING_INFO};
  info.renderArea = {{0, 0}, extent};
  info.layerCount = 1;
  info.colorAttachmentCount = static_cast<uint32_t>(color_infos.size());
  info.pColorAttachments = color_infos.data();
  info.pDepthAttachment = depth ? &depth_info : nullptr;
  vkCmdBeginRendering(cmd, &info);

  // Vulkan's y axis points down; the projection matrices account for it, so the viewport is
  // the plain one.
  VkViewport viewport{0.0f, 0.0f, static_cast<float>(extent.width), static_cast<float>(extent.height), 0.0f, 1.0f};
  VkRect2D scissor{{0, 0}, extent};
  vkCmdSetViewport(cmd, 0, 1, &viewport);
  vkCmdSetScissor(cmd, 0, 1, &scissor);
}

void end_rendering(VkCommandBuffer cmd) { vkCmdEndRendering(cmd); }

}  // namespace meniscus::passes
