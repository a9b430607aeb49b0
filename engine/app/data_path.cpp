#include "engine/app/data_path.h"

#include "engine/core/data_files.h"

namespace meniscus {

std::string resolve_data_path(const std::string& spec, const std::filesystem::path& scene_file) {
  constexpr std::string_view kData = "data:";
  if (spec.rfind(kData, 0) == 0) return find_data_file(spec.substr(kData.size())).string();
  const bool field = spec.find(':') != std::string::npos && !std::filesystem::exists(spec);
  if (field || std::filesystem::path(spec).is_absolute()) return spec;
  return (scene_file.parent_path() / spec).string();
}

}  // namespace meniscus
