#include "engine/core/shader.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "engine/core/context.h"
#include "engine/core/error.h"

namespace meniscus {

std::vector<uint32_t> load_spirv(const std::string& name) {
  std::vector<std::filesystem::path> candidates;
  if (const char* dir = std::getenv("MENISCUS_SHADER_DIR")) candidates.emplace_back(dir);
  candidates.emplace_back(MENISCUS_SHADER_DIR);
  for (const auto& dir : candidates) {
    const auto path = dir / (name + ".spv");
    std::ifstream file(path, std::ios::binary | std::ios::ate);
    if (!file) continue;
    const auto bytes = static_cast<size_t>(file.tellg());
    if (bytes == 0 || bytes % 4 != 0) throw DeviceError("corrupt SPIR-V file " + path.string());
    std::vector<uint32_t> words(bytes / 4);
    file.seekg(0);
    file.read(reinterpret_cast<char*>(words.data()), static_cast<std::streamsize>(bytes));
    return words;
  }
  throw DeviceError("shader " + name + ".spv not found in $MENISCUS_SHADER_DIR or " MENISCUS_SHADER_DIR);
}

ShaderModule::ShaderModule(const Context& context, const std::string& name) : context_(context) {
  const auto words = load_spirv(name);
  VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  info.codeSize = words.size() * sizeof(uint32_t);
  info.pCode = words.data();
  VK_CHECK(vkCreateShaderModule(context.device(), &info, nullptr, &module_));
  context.set_name(VK_OBJECT_TYPE_SHADER_MODULE, reinterpret_cast<uint64_t>(module_), name.c_str());
}

ShaderModule::~ShaderModule() { vkDestroyShaderModule(context_.device(), module_, nullptr); }

}  // namespace meniscus
