// meniscus: the program users launch. Parses the command line and hands over to the viewer or
// the headless capture; turns the two kinds of failure into their exit codes.
#include <cstdio>
#include <filesystem>
#include <new>
#include <stdexcept>

#include "engine/app/cli.h"
#include "engine/app/levelset_command.h"
#include "engine/app/mesh_command.h"
#include "engine/app/reconstruct_command.h"
#include "engine/app/segment_command.h"
#include "engine/app/wavelet_command.h"
#include "engine/core/error.h"
#include "engine/core/input_limits.h"

int main(int argc, char** argv) {
  using namespace meniscus;
  try {
    const Command command = parse_cli(argc, argv);
    switch (command.verb) {
      case Verb::Help:
        std::fputs(usage_text().c_str(), stdout);
        return 0;
      case Verb::Version:
        std::printf("meniscus %s\n", MENISCUS_VERSION);
        return 0;
      case Verb::Run:
        return run_interactive(command.run);
      case Verb::Mesh:
        return mesh_volume(command.mesh);
      case Verb::LevelSet:
        return evolve_level_set(command.levelset);
      case Verb::Reconstruct:
        return reconstruct_points(command.reconstruct);
      case Verb::Segment:
        return segment_volume(command.segment);
      case Verb::Wavelet:
        return transform_volume(command.wavelet);
      case Verb::Capture: {
        const CaptureResult result = capture(command.capture);
        if (command.capture.png)
          std::printf("wrote %s (%ux%u, %s)\n", command.capture.png->string().c_str(), result.image.width,
                      result.image.height, result.device.c_str());
        for (const auto& path : command.capture.timings) std::printf("wrote %s\n", path.string().c_str());
        return result.validation_errors == 0 ? 0 : 1;
      }
    }
  } catch (const InputError& error) {
    std::fprintf(stderr, "meniscus: %s\n", error.what());
    return kInputErrorExitCode;
  } catch (const std::bad_alloc&) {
    // Sizes come from the input (volume, mesh, scene): running out of memory is the input asking
    // for more than this machine has. The readers check first; this names what slipped through.
    const std::string what = limits::AllocationScope::unwound();
    std::fprintf(stderr, "meniscus: out of memory while %s (%s of memory available)\n",
                 what.empty() ? "running the command" : what.c_str(),
                 limits::bytes_text(limits::available_memory_bytes()).c_str());
    return kInputErrorExitCode;
  } catch (const std::length_error& error) {
    const std::string what = limits::AllocationScope::unwound();
    std::fprintf(stderr, "meniscus: a size too large for memory while %s (%s)\n",
                 what.empty() ? "running the command" : what.c_str(), error.what());
    return kInputErrorExitCode;
  } catch (const std::filesystem::filesystem_error& error) {
    // A path the user gave that the system refuses (too long, a directory, no permission).
    std::fprintf(stderr, "meniscus: %s: %s\n", error.path1().string().c_str(), error.code().message().c_str());
    return kInputErrorExitCode;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "meniscus: error: %s\n", error.what());
    return 1;
  }
  return 0;
}
