#include "engine/app/data_path.h"

#include "engine/core/data_files.h"
#include "engine/core/error.h"

namespace meniscus {

std::string resolve_data_path(const ParamTable& table, std::string_view key, const std::string& spec) {
  constexpr std::string_view kData = "data:";
  if (spec.rfind(kData, 0) == 0) {
    try {
      return find_data_file(spec.substr(kData.size())).string();
    } catch (const InputError& error) {  // find_data_file knows the data file, not the scene
      table.fail(key, error.what());
    }
  }
  std::error_code error;  // a name the system refuses (too long) is not a file either
  const bool field = spec.find(':') != std::string::npos && !std::filesystem::exists(spec, error);
  if (field || std::filesystem::path(spec).is_absolute()) return spec;
  return (table.file().parent_path() / spec).string();
}

}  // namespace meniscus
