#pragma once
// Where a scene's data lives: `data:<relative path>` is looked up by find_data_file
// ($MENISCUS_DATA, ../shared/data, scenes/data). Anything else is a path relative to the scene
// file (or an analytic field such as `cayley:128`, left untouched).
#include <filesystem>
#include <string>

namespace meniscus {

std::string resolve_data_path(const std::string& spec, const std::filesystem::path& scene_file);

}  // namespace meniscus
