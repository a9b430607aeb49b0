#pragma once
// The output of FrameGraph::compile(): plain data, no Vulkan objects, so the compiler is
// tested without a device.
#include <cstdint>
#include <string>
#include <vector>

#include <vulkan/vulkan.h>

namespace meniscus::graph {

// One image or buffer barrier; images and buffers share the type so a pass's barriers keep
// the order they were derived in. The executor splits them into VkImageMemoryBarrier2 and
// VkBufferMemoryBarrier2.
struct Barrier {
  uint32_t resource;  // index into the graph's resources
  VkPipelineStageFlags2 src_stages;
  VkAccessFlags2 src_access;
  VkPipelineStageFlags2 dst_stages;
  VkAccessFlags2 dst_access;
  VkImageLayout old_layout;  // images only
  VkImageLayout new_layout;
  bool is_image;
  bool aliasing;  // waits on the previous occupant of the same memory
  VkImageAspectFlags aspect = 0;  // images only: depth or colour, from the format
};

struct CompiledPass {
  uint32_t pass;  // index into the graph's passes (declaration order)
  std::vector<Barrier> barriers;
};

struct MemoryRequirement {
  VkDeviceSize size;
  VkDeviceSize alignment;
  uint32_t memory_type_bits;
};

struct MemoryBlock {
  VkDeviceSize size;
  uint32_t memory_type_bits;
  // Images and buffers never share a block: neighbours that live at the same time would
  // otherwise have to respect bufferImageGranularity, which the requirements do not carry.
  bool images;
};

struct Placement {
  uint32_t resource;
  uint32_t block;
  VkDeviceSize offset;
  uint32_t first_use;  // positions in execution order
  uint32_t last_use;
  MemoryRequirement requirement;
  uint32_t usage = 0;  // VkImageUsageFlags or VkBufferUsageFlags of the surviving accesses
};

struct CompiledGraph {
  std::vector<CompiledPass> order;      // surviving passes in execution order
  std::vector<uint32_t> culled;         // culled passes, declaration order
  std::vector<Barrier> final_barriers;  // imported resources to their final state
  std::vector<Placement> placements;    // transient resources used this frame, by resource
  std::vector<MemoryBlock> blocks;
  VkDeviceSize memory_without_aliasing = 0;
  VkDeviceSize memory_with_aliasing = 0;

  // The image barriers / buffer barriers among final_barriers.
  std::vector<Barrier> final_image_barriers() const { return filter(true); }
  std::vector<Barrier> final_buffer_barriers() const { return filter(false); }

 private:
  std::vector<Barrier> filter(bool images) const {
    std::vector<Barrier> out;
    for (const Barrier& b : final_barriers)
      if (b.is_image == images) out.push_back(b);
    return out;
  }
};

}  // namespace meniscus::graph
