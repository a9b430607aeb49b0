#pragma once
// The `meniscus` command line: a verb and its flags. Every error is an InputError naming the
// flag and the bad value; main() prints it with the usage and exits with 2.
#include <string>

#include "engine/app/capture.h"
#include "engine/app/run_window.h"

namespace meniscus {

enum class Verb { Run, Capture, Help, Version };

struct Command {
  Verb verb = Verb::Help;
  RunOptions run;
  CaptureOptions capture;
};

Command parse_cli(int argc, const char* const* argv);
std::string usage_text();

}  // namespace meniscus
