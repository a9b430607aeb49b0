#include "passes/fluid/fluid_settings.h"

namespace meniscus::passes {
namespace {

// Indexed by the enums' values.
const std::vector<std::string_view> kFilterNames{"curvature_flow", "bilateral", "narrow_range"};
const std::vector<std::string_view> kDebugNames{"none", "depth", "thickness", "curvature", "noise"};

template <typename Enum>
std::optional<Enum> find(const std::vector<std::string_view>& names, std::string_view name) {
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return static_cast<Enum>(i);
  return std::nullopt;
}

}  // namespace

uint32_t FluidSettings::effective_iterations() const {
  if (iterations) return *iterations;
  if (filter != FluidFilter::CurvatureFlow) return 1;
  return resolution_divisor >= 4 ? 15 : resolution_divisor == 2 ? 40 : 100;
}

const std::vector<std::string_view>& fluid_filter_names() { return kFilterNames; }
const std::vector<std::string_view>& fluid_debug_view_names() { return kDebugNames; }

std::optional<FluidFilter> fluid_filter_from_name(std::string_view name) {
  return find<FluidFilter>(kFilterNames, name);
}
std::optional<FluidDebugView> fluid_debug_view_from_name(std::string_view name) {
  return find<FluidDebugView>(kDebugNames, name);
}
std::string_view fluid_filter_name(FluidFilter filter) { return kFilterNames[size_t(filter)]; }
std::string_view fluid_debug_view_name(FluidDebugView view) { return kDebugNames[size_t(view)]; }

}  // namespace meniscus::passes
