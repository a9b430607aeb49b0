#pragma once
// A render test's scene: a base scene file from the source tree plus a few TOML lines (a pass
// table, a setting), written to a temporary folder and captured headless on the CPU backend
// with validation on.
#include <cstdint>
#include <filesystem>
#include <string>

#include "engine/app/capture.h"

namespace meniscus::testing {

// The small dam break's golden frame (tests/render/scenes/dam_break_small.toml): a third of a
// second, the surge halfway along the tank.
constexpr uint32_t kDamBreakFrames = 20;

// The base scene plus `extra_toml`, written as a temporary file named after `name`.
std::filesystem::path write_variant(const std::string& base, const std::string& name, const std::string& extra_toml);

// `base` is relative to the source tree; `name` names the temporary file.
CaptureResult capture_variant(const std::string& base, const std::string& name, const std::string& extra_toml,
                              uint32_t frames);

}  // namespace meniscus::testing
