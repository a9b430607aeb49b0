#pragma once
// `meniscus run`: the interactive viewer. Without a display it says so and renders headless,
// leaving a PNG of the last frame in out/<scene>.png.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "engine/app/capture.h"

namespace meniscus {

struct RunOptions {
  std::filesystem::path scene;
  std::optional<uint32_t> width, height;
  std::optional<uint32_t> frames;  // exit after this many presented frames (tests)
  std::vector<std::filesystem::path> timings;
  std::optional<std::filesystem::path> dump_graph;
  std::string sim = "auto";
  std::string device;
  bool validation = kValidationByDefault;
  std::optional<passes::FluidDebugView> fluid_debug;  // --fluid-debug: overrides [pass.fluid] debug_view
};

// Returns the process exit code.
int run_interactive(const RunOptions& options);

}  // namespace meniscus
