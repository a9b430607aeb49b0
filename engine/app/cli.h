#pragma once
// The `meniscus` command line: a verb and its flags. Every error is an InputError naming the
// flag and the bad value; main() prints it with the usage and exits with 2.
#include <optional>
#include <string>

#include "engine/app/capture.h"
#include "engine/app/run_window.h"

namespace meniscus {

enum class Verb { Run, Capture, Mesh, Help, Version };

// `meniscus mesh <volume> --iso V -o out.ply`: marching cubes through the HistoPyramid.
struct MeshOptions {
  std::string volume;  // a .nrrd/.nhdr/.vtk file, or an analytic field such as cayley:256
  std::optional<float> iso;
  std::filesystem::path output;
  std::string sim = "cpu";  // cpu | vulkan
  std::string device;
  bool validation = kValidationByDefault;
};

struct Command {
  Verb verb = Verb::Help;
  RunOptions run;
  CaptureOptions capture;
  MeshOptions mesh;
};

// Takes main()'s argv as is (char** converts). Verbs are rows of a table in cli.cpp; a later
// verb (levelset, reconstruct, ...) is a row there, a Verb value, its options here and a case
// in main().
Command parse_cli(int argc, const char* const* argv);
std::string usage_text();

}  // namespace meniscus
