#pragma once
// SPIR-V modules compiled by glslc at build time. They are looked up in $MENISCUS_SHADER_DIR
// first (bundled runs on another machine), then in the build tree.
#include <string>
#include <vector>

#include <vulkan/vulkan.h>

namespace meniscus {

class Context;

std::vector<uint32_t> load_spirv(const std::string& name);  // e.g. "sky.comp"

// A VkShaderModule destroyed with its owner.
class ShaderModule {
 public:
  ShaderModule(const Context& context, const std::string& name);
  ~ShaderModule();
  ShaderModule(const ShaderModule&) = delete;
  ShaderModule& operator=(const ShaderModule&) = delete;
  VkShaderModule handle() const { return module_; }

 private:
  const Context& context_;
  VkShaderModule module_ = VK_NULL_HANDLE;
};

}  // namespace meniscus
