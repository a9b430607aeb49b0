#include "passes/solids/sun_shadow.h"

#include "engine/core/context.h"
#include "engine/core/error.h"

namespace meniscus::passes {

VkSampler create_shadow_sampler(const Context& context) {
  VkSamplerCreateInfo info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  info.magFilter = info.minFilter = VK_FILTER_LINEAR;
  info.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
  info.addressModeU = info.addressModeV = info.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  info.compareEnable = VK_TRUE;
  info.compareOp = VK_COMPARE_OP_LESS_OR_EQUAL;  // lit where the reference is no deeper than the caster
  info.maxLod = 0.0f;
  VkSampler sampler;
  VK_CHECK(vkCreateSampler(context.device(), &info, nullptr, &sampler));
  return sampler;
}

}  // namespace meniscus::passes
