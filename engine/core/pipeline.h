#pragma once
// Pipelines with one push-descriptor set and an optional push-constant block.
//
// Every pass binds its resources with vkCmdPushDescriptorSetKHR: the frame graph hands out new
// image views and buffers as it pleases, and pushing them at record time means no descriptor
// pools or per-frame set bookkeeping anywhere in the engine.
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include <vulkan/vulkan.h>

namespace meniscus {

class Context;

struct Binding {
  VkDescriptorType type;
  VkShaderStageFlags stages;
};

enum class Blend { None, Additive, Alpha };

struct GraphicsPipelineDesc {
  std::string vertex_shader;    // e.g. "particles.vert"
  std::string fragment_shader;  // empty for depth-only pipelines
  std::vector<Binding> bindings;
  uint32_t push_constant_bytes = 0;
  std::vector<VkFormat> color_formats;
  VkFormat depth_format = VK_FORMAT_UNDEFINED;
  bool depth_test = false;
  bool depth_write = false;
  VkCompareOp depth_compare = VK_COMPARE_OP_LESS;
  Blend blend = Blend::None;
  VkCullModeFlags cull = VK_CULL_MODE_NONE;
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  const char* debug_name = nullptr;
};

struct ComputePipelineDesc {
  std::string shader;  // e.g. "sky.comp"
  std::vector<Binding> bindings;
  uint32_t push_constant_bytes = 0;
  const char* debug_name = nullptr;
};

// Collects the descriptor writes for one push; the infos live as long as the writer.
class DescriptorWrites {
 public:
  DescriptorWrites& image(uint32_t binding, VkDescriptorType type, VkImageView view,
                          VkImageLayout layout, VkSampler sampler = VK_NULL_HANDLE);
  DescriptorWrites& buffer(uint32_t binding, VkDescriptorType type, VkBuffer buffer,
                           VkDeviceSize offset = 0, VkDeviceSize range = VK_WHOLE_SIZE);
  const std::vector<VkWriteDescriptorSet>& writes() const { return writes_; }

 private:
  std::vector<VkWriteDescriptorSet> writes_;
  std::deque<VkDescriptorImageInfo> images_;  // deque: stable addresses as it grows
  std::deque<VkDescriptorBufferInfo> buffers_;
};

class Pipeline {
 public:
  Pipeline(const Context& context, const GraphicsPipelineDesc& desc);
  Pipeline(const Context& context, const ComputePipelineDesc& desc);
  ~Pipeline();
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;

  void bind(VkCommandBuffer cmd) const;
  void push_descriptors(VkCommandBuffer cmd, const DescriptorWrites& writes) const;
  void push_constants(VkCommandBuffer cmd, const void* data, uint32_t bytes) const;
  template <typename T>
  void push_constants(VkCommandBuffer cmd, const T& value) const {
    push_constants(cmd, &value, sizeof(T));
  }

 private:
  void create_layout(const std::vector<Binding>& bindings, uint32_t push_constant_bytes,
                     VkShaderStageFlags push_stages);

  const Context& context_;
  VkPipelineBindPoint bind_point_;
  VkShaderStageFlags push_stages_ = 0;
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
  PFN_vkCmdPushDescriptorSetKHR push_descriptor_set_ = nullptr;
};

// A sampler shared by passes that only need the usual ones.
enum class Filter { Linear, Nearest };
VkSampler create_sampler(const Context& context, Filter filter, VkSamplerAddressMode address);

}  // namespace meniscus
