#pragma once
// Where real data lives: `data:<relative path>` names a file under $MENISCUS_DATA, or else
// under ../shared/data beside the checkout (../shared/data/README.md). Anything else is a path
// relative to the scene file (or an analytic field such as `cayley:128`, left untouched).
#include <filesystem>
#include <string>

namespace meniscus {

std::string resolve_data_path(const std::string& spec, const std::filesystem::path& scene_file);

}  // namespace meniscus
