#include "engine/app/cli.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <vector>

#include "engine/core/error.h"

namespace meniscus {
namespace {

// Reads flags in order; each parser consumes its value from the same cursor.
class Args {
 public:
  Args(int argc, const char* const* argv) : args_(argv + 1, argv + argc) {}
  bool done() const { return next_ >= args_.size(); }
  std::string take() { return args_[next_++]; }
  std::string value(const std::string& flag) {
    if (done()) throw InputError(flag + ": missing value");
    return take();
  }

 private:
  std::vector<std::string> args_;
  size_t next_ = 0;
};

uint32_t parse_count(const std::string& flag, const std::string& text, uint32_t min) {
  uint32_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < min)
    throw InputError(flag + ": expected an integer >= " + std::to_string(min) + ", got '" + text + "'");
  return value;
}

void parse_size(const std::string& text, std::optional<uint32_t>& width, std::optional<uint32_t>& height) {
  const size_t x = text.find('x');
  const std::string bad = "--size: expected WxH like 1280x720 (each 16..16384), got '" + text + "'";
  if (x == std::string::npos) throw InputError(bad);
  try {
    const uint32_t w = parse_count("--size", text.substr(0, x), 16);
    const uint32_t h = parse_count("--size", text.substr(x + 1), 16);
    if (w > 16384 || h > 16384) throw InputError(bad);
    width = w;
    height = h;
  } catch (const InputError&) {
    throw InputError(bad);
  }
}

std::filesystem::path parse_timings(const std::string& text) {
  for (const char* suffix : {".trace.json", ".json", ".csv"})
    if (text.size() > std::string(suffix).size() && text.ends_with(suffix)) return text;
  throw InputError("--timings: expected a file ending in .json, .csv or .trace.json, got '" + text + "'");
}

std::string parse_sim(const std::string& text) {
  if (text != "cpu" && text != "cuda" && text != "auto")
    throw InputError("--sim: expected cpu, cuda or auto, got '" + text + "'");
  return text;
}

// Flags shared by run and capture; returns false for a flag it does not know.
template <typename Options>
bool parse_common(const std::string& flag, Args& args, Options& o) {
  if (flag == "--size") parse_size(args.value(flag), o.width, o.height);
  else if (flag == "--timings") o.timings.push_back(parse_timings(args.value(flag)));
  else if (flag == "--dump-graph") o.dump_graph = args.value(flag);
  else if (flag == "--sim") o.sim = parse_sim(args.value(flag));
  else if (flag == "--device") o.device = args.value(flag);
  else if (flag == "--validation") o.validation = true;
  else if (flag == "--no-validation") o.validation = false;
  else return false;
  return true;
}

std::filesystem::path take_scene(Args& args, const std::string& verb) {
  if (args.done()) throw InputError("meniscus " + verb + ": missing scene file (e.g. scenes/particles.toml)");
  std::string scene = args.take();
  if (scene.starts_with("-")) throw InputError("meniscus " + verb + ": expected a scene file before flags, got '" + scene + "'");
  return scene;
}

}  // namespace

std::string usage_text() {
  return "usage:\n"
         "  meniscus run <scene> [--size WxH] [--frames N] [--sim cpu|cuda|auto] [--device NAME]\n"
         "                       [--validation|--no-validation] [--dump-graph out.dot] [--timings FILE]...\n"
         "  meniscus capture <scene> [--size WxH] [--png out.png] [--frames N] [--warmup W]\n"
         "                       [--timings FILE]... [--sim cpu|cuda|auto] [--device NAME]\n"
         "                       [--validation|--no-validation] [--dump-graph out.dot]\n"
         "  meniscus mesh <volume.nrrd|.nhdr|.vtk|cayley:N|sphere:N|torus:N> --iso V -o out.ply|.obj\n"
         "                       [--sim cpu|vulkan] [--device NAME] [--validation]\n"
         "  meniscus help | --version\n"
         "validation layers are on by default in Debug builds\n"
         "timing files: .json (statistics), .csv (per frame), .trace.json (chrome://tracing)\n";
}

Command parse_cli(int argc, const char* const* argv) {
  Args args(argc, argv);
  Command command;
  if (args.done()) return command;
  const std::string verb = args.take();
  if (verb == "help" || verb == "--help" || verb == "-h") return command;
  if (verb == "--version" || verb == "version") {
    command.verb = Verb::Version;
    return command;
  }
  if (verb == "run") {
    command.verb = Verb::Run;
    RunOptions& o = command.run;
    o.scene = take_scene(args, verb);
    while (!args.done()) {
      const std::string flag = args.take();
      if (parse_common(flag, args, o)) continue;
      if (flag == "--frames") o.frames = parse_count(flag, args.value(flag), 1);
      else throw InputError("meniscus run: unknown flag '" + flag + "'");
    }
    return command;
  }
  if (verb == "capture") {
    command.verb = Verb::Capture;
    CaptureOptions& o = command.capture;
    o.scene = take_scene(args, verb);
    while (!args.done()) {
      const std::string flag = args.take();
      if (parse_common(flag, args, o)) continue;
      if (flag == "--frames") o.frames = parse_count(flag, args.value(flag), 1);
      else if (flag == "--warmup") o.warmup = parse_count(flag, args.value(flag), 0);
      else if (flag == "--png") o.png = args.value(flag);
      else throw InputError("meniscus capture: unknown flag '" + flag + "'");
    }
    if (!o.png && o.timings.empty())
      o.png = std::filesystem::path("out") / (o.scene.stem().string() + ".png");
    return command;
  }
  if (verb == "mesh") {
    command.verb = Verb::Mesh;
    MeshOptions& o = command.mesh;
    if (args.done()) throw InputError("meniscus mesh: missing volume (a .nrrd/.nhdr/.vtk file or e.g. cayley:128)");
    o.volume = args.take();
    while (!args.done()) {
      const std::string flag = args.take();
      if (flag == "--iso") {
        const std::string text = args.value(flag);
        char* end = nullptr;
        const float iso = std::strtof(text.c_str(), &end);
        if (end == text.c_str() || *end != '\0' || !std::isfinite(iso))
          throw InputError("--iso: expected a finite number, got '" + text + "'");
        o.iso = iso;
      } else if (flag == "-o" || flag == "--output") {
        o.output = args.value(flag);
      } else if (flag == "--sim") {
        o.sim = args.value(flag);
        if (o.sim != "cpu" && o.sim != "vulkan")
          throw InputError("--sim: expected cpu or vulkan (the CUDA marching cubes is not built yet), got '" + o.sim + "'");
      } else if (flag == "--device") {
        o.device = args.value(flag);
      } else if (flag == "--validation") {
        o.validation = true;
      } else {
        throw InputError("meniscus mesh: unknown flag '" + flag + "'");
      }
    }
    if (!o.iso) throw InputError("meniscus mesh: --iso is required");
    if (o.output.empty()) throw InputError("meniscus mesh: -o out.ply (or .obj) is required");
    const std::string suffix = o.output.extension().string();
    if (suffix != ".ply" && suffix != ".obj")
      throw InputError("-o: expected a .ply or .obj file, got '" + o.output.string() + "'");
    return command;
  }
  throw InputError("unknown command '" + verb + "' (expected run, capture, mesh or help)");
}

}  // namespace meniscus
