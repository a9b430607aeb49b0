#pragma once
// Where a scene's data lives: `data:<relative path>` is looked up by find_data_file
// ($MENISCUS_DATA, ../shared/data, scenes/data). Anything else is a path relative to the scene
// file (or an analytic field such as `cayley:128`, left untouched).
#include <filesystem>
#include <string>
#include <string_view>

#include "engine/app/param_table.h"

namespace meniscus {

// `spec` is the value of `table.key`: a `data:` file that is found nowhere is an InputError
// naming the scene file, line and field, as every other bad value is.
std::string resolve_data_path(const ParamTable& table, std::string_view key, const std::string& spec);

}  // namespace meniscus
