#include "passes/mip/mip_settings.h"

namespace meniscus::passes {

const std::vector<std::string_view>& mip_method_names() {
  static const std::vector<std::string_view> names{"ray_cast", "multiresolution", "streaming"};
  return names;
}

std::optional<MipMethod> mip_method_from_name(std::string_view name) {
  const auto& names = mip_method_names();
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return MipMethod(i);
  return std::nullopt;
}

}  // namespace meniscus::passes
