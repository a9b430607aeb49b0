#pragma once
// How a pass touches a resource. One enum for images and buffers: each value fixes the
// pipeline stages, the memory access and (for images) the layout, so passes state intent and
// the graph derives every barrier.
#include <vulkan/vulkan.h>

namespace meniscus::graph {

enum class Access {
  None,  // imported with undefined content / no pending access
  ColorAttachmentWrite,      // cleared or fully overwritten
  ColorAttachmentReadWrite,  // loaded or blended
  DepthAttachmentWrite,      // depth test + write
  DepthAttachmentRead,       // depth test only, read-only layout
  VertexSample,
  FragmentSample,
  ComputeSample,
  VertexStorageRead,
  FragmentStorageRead,
  ComputeStorageRead,
  ComputeStorageWrite,
  ComputeStorageReadWrite,
  IndirectRead,
  IndexRead,
  VertexAttributeRead,
  TransferSrc,
  TransferDst,
  Present,    // swapchain image final state
  HostWrite,  // the CPU wrote it before the frame
  HostRead,   // the CPU reads it after the frame
};

struct AccessInfo {
  VkPipelineStageFlags2 stages;
  VkAccessFlags2 access;
  VkImageLayout layout;  // UNDEFINED for buffers and for None
  bool writes;
};

// `depth_format` picks the depth read-only layout for sampled accesses of depth images, so a
// depth buffer can be tested and sampled in one pass without a layout change.
AccessInfo access_info(Access access, bool depth_format);
const char* access_name(Access access);
// The usage bit a transient needs for this access (0 for host, present and none).
VkImageUsageFlags image_usage_for(Access access);
VkBufferUsageFlags buffer_usage_for(Access access);

}  // namespace meniscus::graph
