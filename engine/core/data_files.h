#pragma once
// Real data (volumes, meshes) is looked up by relative path in $MENISCUS_DATA, then in
// ../shared/data beside the checkout, then in the small copies shipped under scenes/data.
#include <filesystem>
#include <string>

namespace meniscus {

// The first existing candidate; InputError listing where it looked when none exists.
std::filesystem::path find_data_file(const std::string& relative);

}  // namespace meniscus
