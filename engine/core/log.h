#pragma once
// One-line messages to stderr with a level prefix. Kept deliberately tiny: the engine logs
// decisions a user should know about (device chosen, backend fallback), not per-frame chatter.
#include <string_view>

namespace meniscus::log {

void info(std::string_view message);
void warn(std::string_view message);
void error(std::string_view message);

// Silences info() (tests and benchmarks keep stderr for what matters).
void set_quiet(bool quiet);

}  // namespace meniscus::log
