#include "engine/core/data_files.h"

#include <cstdlib>
#include <vector>

#include "engine/core/error.h"

namespace meniscus {

std::filesystem::path find_data_file(const std::string& relative) {
  std::vector<std::filesystem::path> candidates;
  if (const char* root = std::getenv("MENISCUS_DATA")) candidates.push_back(std::filesystem::path(root) / relative);
  const std::filesystem::path source(MENISCUS_SOURCE_DIR);
  candidates.push_back((source / ".." / "shared" / "data" / relative).lexically_normal());
  candidates.push_back(source / "scenes" / "data" / relative);
  std::string looked;
  for (const auto& path : candidates) {
    if (std::filesystem::exists(path)) return path;
    looked += (looked.empty() ? "" : ", ") + path.string();
  }
  throw InputError("data file " + relative + " not found (looked in " + looked + "; set MENISCUS_DATA)");
}

}  // namespace meniscus
