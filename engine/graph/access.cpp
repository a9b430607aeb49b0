#include "engine/graph/access.h"

namespace meniscus::graph {

AccessInfo access_info(Access access, bool depth_format) {
  const VkImageLayout read_only = depth_format ? VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL
                                               : VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
  switch (access) {
    case Access::None:
      return {VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE, VK_IMAGE_LAYOUT_UNDEFINED, false};
    case Access::ColorAttachmentWrite:
      return {VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
              VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, true};
    case Access::ColorAttachmentReadWrite:
      return {VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
              VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
              VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, true};
    case Access::DepthAttachmentWrite:
      return {VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
              VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
              VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, true};
    case Access::DepthAttachmentRead:
      return {VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
              VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT, VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL, false};
    case Access::VertexSample:
      return {VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT, read_only, false};
    case Access::FragmentSample:
      return {VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT, read_only, false};
    case Access::ComputeSample:
      return {VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT, read_only, false};
    case Access::VertexStorageRead:
      return {VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT,
              VK_IMAGE_LAYOUT_GENERAL, false};
    case Access::FragmentStorageRead:
      return {VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT,
              VK_IMAGE_LAYOUT_GENERAL, false};
    case Access::ComputeStorageRead:
      return {VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT,
              VK_IMAGE_LAYOUT_GENERAL, false};
    case Access::ComputeStorageWrite:
      return {VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
              VK_IMAGE_LAYOUT_GENERAL, true};
    case Access::ComputeStorageReadWrite:
      return {VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
              VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
              VK_IMAGE_LAYOUT_GENERAL, true};
    case Access::IndirectRead:
      return {VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT, VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT,
              VK_IMAGE_LAYOUT_UNDEFINED, false};
    case Access::IndexRead:
      return {VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT, VK_ACCESS_2_INDEX_READ_BIT, VK_IMAGE_LAYOUT_UNDEFINED, false};
    case Access::VertexAttributeRead:
      return {VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT, VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT,
              VK_IMAGE_LAYOUT_UNDEFINED, false};
    // All transfer stages: a pass may copy, blit (mip chains), resolve or clear, and the
    // graph cannot tell which; COPY alone would leave a blit unsynchronised.
    case Access::TransferSrc:
      return {VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT,
              VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, false};
    case Access::TransferDst:
      return {VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
              VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, true};
    case Access::Present:
      // Presentation needs no access mask; the semaphore signal after the frame orders it.
      return {VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, false};
    case Access::HostWrite:
      return {VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_WRITE_BIT, VK_IMAGE_LAYOUT_GENERAL, true};
    case Access::HostRead:
      return {VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT, VK_IMAGE_LAYOUT_GENERAL, false};
  }
  return {};
}

const char* access_name(Access access) {
  switch (access) {
    case Access::None: return "None";
    case Access::ColorAttachmentWrite: return "ColorAttachmentWrite";
    case Access::ColorAttachmentReadWrite: return "ColorAttachmentReadWrite";
    case Access::DepthAttachmentWrite: return "DepthAttachmentWrite";
    case Access::DepthAttachmentRead: return "DepthAttachmentRead";
    case Access::VertexSample: return "VertexSample";
    case Access::FragmentSample: return "FragmentSample";
    case Access::ComputeSample: return "ComputeSample";
    case Access::VertexStorageRead: return "VertexStorageRead";
    case Access::FragmentStorageRead: return "FragmentStorageRead";
    case Access::ComputeStorageRead: return "ComputeStorageRead";
    case Access::ComputeStorageWrite: return "ComputeStorageWrite";
    case Access::ComputeStorageReadWrite: return "ComputeStorageReadWrite";
    case Access::IndirectRead: return "IndirectRead";
    case Access::IndexRead: return "IndexRead";
    case Access::VertexAttributeRead: return "VertexAttributeRead";
    case Access::TransferSrc: return "TransferSrc";
    case Access::TransferDst: return "TransferDst";
    case Access::Present: return "Present";
    case Access::HostWrite: return "HostWrite";
    case Access::HostRead: return "HostRead";
  }
  return "?";
}

VkImageUsageFlags image_usage_for(Access access) {
  switch (access) {
    case Access::ColorAttachmentWrite:
    case Access::ColorAttachmentReadWrite:
      return VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
    case Access::DepthAttachmentWrite:
    case Access::DepthAttachmentRead:
      return VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT;
    case Access::VertexSample:
    case Access::FragmentSample:
    case Access::ComputeSample:
      return VK_IMAGE_USAGE_SAMPLED_BIT;
    case Access::VertexStorageRead:
    case Access::FragmentStorageRead:
    case Access::ComputeStorageRead:
    case Access::ComputeStorageWrite:
    case Access::ComputeStorageReadWrite:
      return VK_IMAGE_USAGE_STORAGE_BIT;
    case Access::TransferSrc:
      return VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    case Access::TransferDst:
      return VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    default:
      return 0;
  }
}

VkBufferUsageFlags buffer_usage_for(Access access) {
  switch (access) {
    case Access::VertexStorageRead:
    case Access::FragmentStorageRead:
    case Access::ComputeStorageRead:
    case Access::ComputeStorageWrite:
    case Access::ComputeStorageReadWrite:
      return VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    case Access::IndirectRead:
      return VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;
    case Access::IndexRead:
      return VK_BUFFER_USAGE_INDEX_BUFFER_BIT;
    case Access::VertexAttributeRead:
      return VK_BUFFER_USAGE_VERTEX_BUFFER_BIT;
    case Access::TransferSrc:
      return VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
    case Access::TransferDst:
      return VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    default:
      return 0;
  }
}

}  // namespace meniscus::graph
