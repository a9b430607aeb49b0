#include "engine/app/data_path.h"

#include <cstdlib>

namespace meniscus {

std::string resolve_data_path(const std::string& spec, const std::filesystem::path& scene_file) {
  constexpr std::string_view kData = "data:";
  if (spec.rfind(kData, 0) == 0) {
    const std::string relative = spec.substr(kData.size());
    if (const char* root = std::getenv("MENISCUS_DATA")) return (std::filesystem::path(root) / relative).string();
    return (std::filesystem::path(MENISCUS_SOURCE_DIR) / ".." / "shared" / "data" / relative).lexically_normal().string();
  }
  const bool field = spec.find(':') != std::string::npos && !std::filesystem::exists(spec);
  if (field || std::filesystem::path(spec).is_absolute()) return spec;
  return (scene_file.parent_path() / spec).string();
}

}  // namespace meniscus
