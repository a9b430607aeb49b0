#pragma once
// Headless rendering: a scene rendered offscreen for N frames, the last one read back.
// Used by `meniscus capture`, by `meniscus run` without a display, and by the render tests.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "engine/app/png_io.h"
#include "passes/fluid/fluid_settings.h"

namespace meniscus {

// Validation layers are on by default in Debug builds; --validation / --no-validation decide.
#ifdef MENISCUS_VALIDATION_BY_DEFAULT
inline constexpr bool kValidationByDefault = true;
#else
inline constexpr bool kValidationByDefault = false;
#endif

struct CaptureOptions {
  std::filesystem::path scene;
  std::optional<uint32_t> width, height;  // default: the scene's [render] size
  uint32_t frames = 1;                    // recorded frames
  uint32_t warmup = 0;                    // frames rendered before the recorded ones
  std::vector<std::filesystem::path> timings;
  std::optional<std::filesystem::path> png;
  std::optional<std::filesystem::path> dump_graph;
  // The last frame's level-set mesh (the surface pass's level-set stage, first layer), in the
  // stage's world units.
  std::optional<std::filesystem::path> export_mesh;
  std::optional<std::filesystem::path> export_vdb;  // the drawn level set itself, after the last frame
  std::string sim = "auto";
  std::string device;
  bool validation = kValidationByDefault;
  std::optional<passes::FluidDebugView> fluid_debug;  // --fluid-debug: overrides [pass.fluid] debug_view
  double dt = 1.0 / 60.0;  // simulated seconds per frame (fixed, so captures are reproducible)
};

struct CaptureResult {
  RgbaImage image;  // the last frame
  uint32_t validation_errors = 0;
  std::string device;
};

CaptureResult capture(const CaptureOptions& options);

}  // namespace meniscus
