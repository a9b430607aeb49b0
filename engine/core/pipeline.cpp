#include "engine/core/pipeline.h"

#include "engine/core/context.h"
#include "engine/core/error.h"
#include "engine/core/shader.h"

namespace meniscus {

DescriptorWrites& DescriptorWrites::image(uint32_t binding, VkDescriptorType type,
                                          VkImageView view, VkImageLayout layout,
                                          VkSampler sampler) {
  images_.push_back({sampler, view, layout});
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  write.dstBinding = binding;
  write.descriptorCount = 1;
  write.descriptorType = type;
  write.pImageInfo = &images_.back();
  writes_.push_back(write);
  return *this;
}

DescriptorWrites& DescriptorWrites::buffer(uint32_t binding, VkDescriptorType type, VkBuffer buffer,
                                           VkDeviceSize offset, VkDeviceSize range) {
  buffers_.push_back({buffer, offset, range});
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  write.dstBinding = binding;
  write.descriptorCount = 1;
  write.descriptorType = type;
  write.pBufferInfo = &buffers_.back();
  writes_.push_back(write);
  return *this;
}

void Pipeline::create_layout(const std::vector<Binding>& bindings, uint32_t push_constant_bytes,
                             VkShaderStageFlags push_stages) {
  std::vector<VkDescriptorSetLayoutBinding> layout_bindings;
  for (uint32_t i = 0; i < bindings.size(); ++i)
    layout_bindings.push_back({i, bindings[i].type, 1, bindings[i].stages, nullptr});
  VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  set_info.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
  set_info.bindingCount = static_cast<uint32_t>(layout_bindings.size());
  set_info.pBindings = layout_bindings.data();
  VK_CHECK(vkCreateDescriptorSetLayout(context_.device(), &set_info, nullptr, &set_layout_));

  VkPushConstantRange range{push_stages, 0, push_constant_bytes};
  push_stages_ = push_stages;
  VkPipelineLayoutCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  info.setLayoutCount = 1;
  info.pSetLayouts = &set_layout_;
  info.pushConstantRangeCount = push_constant_bytes ? 1 : 0;
  info.pPushConstantRanges = &range;
  VK_CHECK(vkCreatePipelineLayout(context_.device(), &info, nullptr, &layout_));
  push_descriptor_set_ = reinterpret_cast<PFN_vkCmdPushDescriptorSetKHR>(
      vkGetDeviceProcAddr(context_.device(), "vkCmdPushDescriptorSetKHR"));
}

Pipeline::Pipeline(const Context& context, const ComputePipelineDesc& desc)
    : context_(context), bind_point_(VK_PIPELINE_BIND_POINT_COMPUTE) {
  create_layout(desc.bindings, desc.push_constant_bytes, VK_SHADER_STAGE_COMPUTE_BIT);
  ShaderModule shader(context, desc.shader);
  VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = shader.handle();
  info.stage.pName = "main";
  info.layout = layout_;
  VK_CHECK(vkCreateComputePipelines(context.device(), VK_NULL_HANDLE, 1, &info, nullptr, &pipeline_));
  context.set_name(VK_OBJECT_TYPE_PIPELINE, reinterpret_cast<uint64_t>(pipeline_),
                   desc.debug_name ? desc.debug_name : desc.shader.c_str());
}

Pipeline::Pipeline(const Context& context, const GraphicsPipelineDesc& desc)
    : context_(context), bind_point_(VK_PIPELINE_BIND_POINT_GRAPHICS) {
  const VkShaderStageFlags stages =
      VK_SHADER_STAGE_VERTEX_BIT | (desc.fragment_shader.empty() ? 0 : VK_SHADER_STAGE_FRAGMENT_BIT);
  create_layout(desc.bindings, desc.push_constant_bytes, stages);

  ShaderModule vertex(context, desc.vertex_shader);
  std::vector<VkPipelineShaderStageCreateInfo> shader_stages;
  VkPipelineShaderStageCreateInfo stage{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
  stage.stage = VK_SHADER_STAGE_VERTEX_BIT;
  stage.module = vertex.handle();
  stage.pName = "main";
  shader_stages.push_back(stage);
  std::unique_ptr<ShaderModule> fragment;
  if (!desc.fragment_shader.empty()) {
    fragment = std::make_unique<ShaderModule>(context, desc.fragment_shader);
    stage.stage = VK_SHADER_STAGE_FRAGMENT_BIT;
    stage.module = fragment->handle();
    shader_stages.push_back(stage);
  }

  // Vertex data is always pulled from storage buffers by index: no vertex input state.
  VkPipelineVertexInputStateCreateInfo vertex_input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  assembly.topology = desc.topology;
  VkPipelineViewportStateCreateInfo viewport{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  viewport.viewportCount = 1;
  viewport.scissorCount = 1;
  VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  raster.polygonMode = VK_POLYGON_MODE_FILL;
  raster.cullMode = desc.cull;
  raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  raster.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  VkPipelineDepthStencilStateCreateInfo depth{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
  depth.depthTestEnable = desc.depth_test;
  depth.depthWriteEnable = desc.depth_write;
  depth.depthCompareOp = desc.depth_compare;

  VkPipelineColorBlendAttachmentState attachment{};
  attachment.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT |
                              VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
  if (desc.blend != Blend::None) {
    attachment.blendEnable = VK_TRUE;
    attachment.colorBlendOp = VK_BLEND_OP_ADD;
    attachment.alphaBlendOp = VK_BLEND_OP_ADD;
    if (desc.blend == Blend::Additive) {
      attachment.srcColorBlendFactor = VK_BLEND_FACTOR_ONE;
      attachment.dstColorBlendFactor = VK_BLEND_FACTOR_ONE;
      attachment.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
      attachment.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
    } else {
      attachment.srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA;
      attachment.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
      attachment.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
      attachment.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
    }
  }
  std::vector<VkPipelineColorBlendAttachmentState> attachments(desc.color_formats.size(), attachment);
  VkPipelineColorBlendStateCreateInfo blend{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  blend.attachmentCount = static_cast<uint32_t>(attachments.size());
  blend.pAttachments = attachments.data();

  const VkDynamicState dynamic_states[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
  VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
  dynamic.dynamicStateCount = 2;
  dynamic.pDynamicStates = dynamic_states;

  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
  rendering.colorAttachmentCount = static_cast<uint32_t>(desc.color_formats.size());
  rendering.pColorAttachmentFormats = desc.color_formats.data();
  rendering.depthAttachmentFormat = desc.depth_format;

  VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
  info.pNext = &rendering;
  info.stageCount = static_cast<uint32_t>(shader_stages.size());
  info.pStages = shader_stages.data();
  info.pVertexInputState = &vertex_input;
  info.pInputAssemblyState = &assembly;
  info.pViewportState = &viewport;
  info.pRasterizationState = &raster;
  info.pMultisampleState = &multisample;
  info.pDepthStencilState = &depth;
  info.pColorBlendState = &blend;
  info.pDynamicState = &dynamic;
  info.layout = layout_;
  VK_CHECK(vkCreateGraphicsPipelines(context.device(), VK_NULL_HANDLE, 1, &info, nullptr, &pipeline_));
  context.set_name(VK_OBJECT_TYPE_PIPELINE, reinterpret_cast<uint64_t>(pipeline_),
                   desc.debug_name ? desc.debug_name : desc.vertex_shader.c_str());
}

Pipeline::~Pipeline() {
  vkDestroyPipeline(context_.device(), pipeline_, nullptr);
  vkDestroyPipelineLayout(context_.device(), layout_, nullptr);
  vkDestroyDescriptorSetLayout(context_.device(), set_layout_, nullptr);
}

void Pipeline::bind(VkCommandBuffer cmd) const { vkCmdBindPipeline(cmd, bind_point_, pipeline_); }

void Pipeline::push_descriptors(VkCommandBuffer cmd, const DescriptorWrites& writes) const {
  const auto& list = writes.writes();
  push_descriptor_set_(cmd, bind_point_, layout_, 0, static_cast<uint32_t>(list.size()), list.data());
}

void Pipeline::push_constants(VkCommandBuffer cmd, const void* data, uint32_t bytes) const {
  vkCmdPushConstants(cmd, layout_, push_stages_, 0, bytes, data);
}

VkSampler create_sampler(const Context& context, Filter filter, VkSamplerAddressMode address) {
  VkSamplerCreateInfo info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  info.magFilter = info.minFilter = filter == Filter::Linear ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
  info.mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
  info.addressModeU = info.addressModeV = info.addressModeW = address;
  info.maxLod = VK_LOD_CLAMP_NONE;
  VkSampler sampler;
  VK_CHECK(vkCreateSampler(context.device(), &info, nullptr, &sampler));
  return sampler;
}

}  // namespace meniscus
