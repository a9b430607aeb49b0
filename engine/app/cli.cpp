#include "engine/app/cli.h"

#include <algorithm>
#include <string_view>
#include <vector>

#include "engine/app/spelling.h"
#include "engine/core/error.h"
#include "engine/core/flag_values.h"
#include "engine/core/input_limits.h"

namespace meniscus {
namespace {

// Reads the words after the verb in order; each flag takes its value from the same cursor.
class Args {
 public:
  Args(int argc, const char* const* argv) : args_(argv + 1, argv + argc) {}
  bool done() const { return next_ >= args_.size(); }
  std::string take() { return args_[next_++]; }
  std::string value(std::string_view flag) {
    if (done()) throw InputError(std::string(flag) + ": missing value");
    return take();
  }

 private:
  std::vector<std::string> args_;
  size_t next_ = 0;
};

// One flag of one verb: its name and what it does to that verb's options.
template <typename Options>
struct Flag {
  std::string_view name;
  void (*apply)(Options& options, Args& args, std::string_view flag);
};

// Frames and steps: a bound that keeps every count in an int, far beyond any run's length.
constexpr uint32_t kMostSteps = 100'000'000;
// Levels and resolutions: a grid of 2^13 = 8192 voxels a side is the tile keys' reach.
constexpr uint32_t kMostDepth = 13, kMostResolution = 1u << kMostDepth;

uint32_t parse_count(std::string_view flag, const std::string& text, uint32_t lo, uint32_t hi,
                     const char* note = nullptr) {
  return uint32_t(parse_integer(flag, text, lo, hi, note));
}

float parse_float(std::string_view flag, const std::string& text, float lo, float hi) {
  return float(parse_number(flag, text, lo, hi));
}

void parse_size(std::string_view flag, const std::string& text, std::optional<uint32_t>& width,
                std::optional<uint32_t>& height) {
  const ImageSize size = parse_image_size(flag, text, 16, 16384);
  width = size.width;
  height = size.height;
}

// The suffix picks the writer (timing_files.h), so an unknown one is caught before any work.
std::filesystem::path parse_timings(const std::string& text) {
  for (std::string_view suffix : {".trace.json", ".json", ".csv"})
    if (text.size() > suffix.size() && text.ends_with(suffix) && text[text.size() - suffix.size() - 1] != '/')
      return text;
  throw InputError("--timings: expected a file ending in .json, .csv or .trace.json, got '" + text + "'");
}

passes::FluidDebugView parse_fluid_debug(const std::string& text) {
  if (const auto view = passes::fluid_debug_view_from_name(text)) return *view;
  std::string names;
  for (const std::string_view name : passes::fluid_debug_view_names()) names += (names.empty() ? "" : ", ") + std::string(name);
  throw InputError("--fluid-debug: expected one of " + names + ", got '" + text + "'");
}

std::string parse_sim(const std::string& text) {
  if (text != "cpu" && text != "cuda" && text != "auto")
    throw InputError("--sim: expected cpu, cuda or auto, got '" + text + "'");
  return text;
}

// Flags that run and capture share.
template <typename Options>
std::vector<Flag<Options>> common_flags() {
  return {
      {"--size", [](Options& o, Args& a, std::string_view f) { parse_size(f, a.value(f), o.width, o.height); }},
      {"--timings", [](Options& o, Args& a, std::string_view f) { o.timings.push_back(parse_timings(a.value(f))); }},
      {"--dump-graph", [](Options& o, Args& a, std::string_view f) { o.dump_graph = a.value(f); }},
      {"--sim", [](Options& o, Args& a, std::string_view f) { o.sim = parse_sim(a.value(f)); }},
      {"--device", [](Options& o, Args& a, std::string_view f) { o.device = a.value(f); }},
      {"--validation", [](Options& o, Args&, std::string_view) { o.validation = true; }},
      {"--no-validation", [](Options& o, Args&, std::string_view) { o.validation = false; }},
      {"--fluid-debug", [](Options& o, Args& a, std::string_view f) { o.fluid_debug = parse_fluid_debug(a.value(f)); }},
  };
}

template <typename Options>
void parse_flags(Args& args, Options& options, const std::vector<Flag<Options>>& flags, std::string_view verb) {
  while (!args.done()) {
    const std::string word = args.take();
    const auto flag = std::find_if(flags.begin(), flags.end(), [&](const Flag<Options>& f) { return f.name == word; });
    if (flag != flags.end()) {
      flag->apply(options, args, flag->name);
      continue;
    }
    std::string message = "meniscus " + std::string(verb) + ": unknown flag '" + word + "'";
    const std::string closest = closest_name(word, flags, [](const Flag<Options>& f) { return f.name; }, 3);
    if (!closest.empty()) message += " (did you mean '" + closest + "'?)";
    throw InputError(message);
  }
}

std::filesystem::path take_scene(Args& args, std::string_view verb) {
  const std::string prefix = "meniscus " + std::string(verb);
  if (args.done()) throw InputError(prefix + ": missing scene file (e.g. scenes/particles.toml)");
  std::string scene = args.take();
  if (scene.starts_with("-")) throw InputError(prefix + ": expected a scene file before flags, got '" + scene + "'");
  return scene;
}

void parse_run(Args& args, Command& command) {
  RunOptions& o = command.run;
  o.scene = take_scene(args, "run");
  auto flags = common_flags<RunOptions>();
  flags.push_back({"--frames", [](RunOptions& o, Args& a, std::string_view f) {
                     o.frames = parse_count(f, a.value(f), 1, kMostSteps);
                   }});
  parse_flags(args, o, flags, "run");
}

void parse_capture(Args& args, Command& command) {
  CaptureOptions& o = command.capture;
  o.scene = take_scene(args, "capture");
  auto flags = common_flags<CaptureOptions>();
  flags.push_back({"--frames", [](CaptureOptions& o, Args& a, std::string_view f) {
                     o.frames = parse_count(f, a.value(f), 1, kMostSteps);
                   }});
  flags.push_back({"--warmup", [](CaptureOptions& o, Args& a, std::string_view f) {
                     o.warmup = parse_count(f, a.value(f), 0, kMostSteps);
                   }});
  flags.push_back({"--png", [](CaptureOptions& o, Args& a, std::string_view f) { o.png = a.value(f); }});
  flags.push_back({"--export-mesh", [](CaptureOptions& o, Args& a, std::string_view f) {
                     o.export_mesh = a.value(f);
                     const std::string ext = o.export_mesh->extension().string();
                     if (ext != ".ply" && ext != ".obj")
                       throw InputError("meniscus capture: " + std::string(f) + " '" + o.export_mesh->string() +
                                        "': expected a .ply or .obj file");
                   }});
  flags.push_back({"--export-vdb", [](CaptureOptions& o, Args& a, std::string_view f) {
                     o.export_vdb = a.value(f);
                     if (o.export_vdb->extension() != ".vdb")
                       throw InputError("meniscus capture: " + std::string(f) + " '" + o.export_vdb->string() +
                                        "': expected a .vdb file");
                   }});
  parse_flags(args, o, flags, "capture");
  // A capture that writes nothing would be wasted work: default to a PNG named after the scene.
  if (!o.png && o.timings.empty()) o.png = std::filesystem::path("out") / (o.scene.stem().string() + ".png");
}

void parse_mesh(Args& args, Command& command) {
  MeshOptions& o = command.mesh;
  if (args.done()) throw InputError("meniscus mesh: missing volume (a .nrrd/.nhdr/.vtk file, a .vdb level set, or e.g. cayley:128)");
  o.volume = args.take();
  const std::vector<Flag<MeshOptions>> flags = {
      {"--iso", [](MeshOptions& o, Args& a, std::string_view f) { o.iso = parse_float(f, a.value(f), -1e30f, 1e30f); }},
      {"-o", [](MeshOptions& o, Args& a, std::string_view f) { o.output = a.value(f); }},
      {"--output", [](MeshOptions& o, Args& a, std::string_view f) { o.output = a.value(f); }},
      {"--sim",
       [](MeshOptions& o, Args& a, std::string_view f) {
         o.sim = a.value(f);
         if (o.sim != "cpu" && o.sim != "vulkan" && o.sim != "cuda")
           throw InputError("--sim: expected cpu, vulkan or cuda, got '" + o.sim + "'");
       }},
      {"--device", [](MeshOptions& o, Args& a, std::string_view f) { o.device = a.value(f); }},
      {"--validation", [](MeshOptions& o, Args&, std::string_view) { o.validation = true; }},
  };
  parse_flags(args, o, flags, "mesh");
  if (!o.iso) throw InputError("meniscus mesh: --iso is required");
  if (o.output.empty()) throw InputError("meniscus mesh: -o out.ply (or .obj) is required");
  const std::string suffix = o.output.extension().string();
  if (suffix != ".ply" && suffix != ".obj")
    throw InputError("-o: expected a .ply or .obj file, got '" + o.output.string() + "'");
}

sim::levelset::TilePrecision parse_precision_flag(std::string_view flag, const std::string& value) {
  const auto precision = sim::levelset::parse_precision(value);
  if (!precision) throw InputError(std::string(flag) + ": expected float32 or fixed16, got '" + value + "'");
  return *precision;
}

void parse_levelset(Args& args, Command& command) {
  LevelSetOptions& o = command.levelset;
  if (args.done())
    throw InputError("meniscus levelset: missing input (a .vdb level set, a closed .ply/.obj mesh, or a volume with --iso)");
  o.input = args.take();
  const std::vector<Flag<LevelSetOptions>> flags = {
      {"-o", [](LevelSetOptions& o, Args& a, std::string_view f) { o.output = a.value(f); }},
      {"--output", [](LevelSetOptions& o, Args& a, std::string_view f) { o.output = a.value(f); }},
      {"--resolution",
       [](LevelSetOptions& o, Args& a, std::string_view f) {
         o.resolution = parse_count(f, a.value(f), 8, kMostResolution, "voxels");
       }},
      {"--iso",
       [](LevelSetOptions& o, Args& a, std::string_view f) { o.iso = parse_float(f, a.value(f), -1e30f, 1e30f); }},
      {"--mcf",
       [](LevelSetOptions& o, Args& a, std::string_view f) { o.mcf = parse_float(f, a.value(f), 0.0f, 1e3f); }},
      {"--speed",
       [](LevelSetOptions& o, Args& a, std::string_view f) { o.speed = parse_float(f, a.value(f), -1e3f, 1e3f); }},
      {"--scheme",
       [](LevelSetOptions& o, Args& a, std::string_view f) {
         o.scheme = a.value(f);
         if (o.scheme != "upwind" && o.scheme != "weno5")
           throw InputError("--scheme: expected upwind or weno5, got '" + o.scheme + "'");
       }},
      {"--precision",
       [](LevelSetOptions& o, Args& a, std::string_view f) { o.precision = parse_precision_flag(f, a.value(f)); }},
      {"--steps",
       [](LevelSetOptions& o, Args& a, std::string_view f) { o.steps = parse_count(f, a.value(f), 0, kMostSteps); }},
      {"--time",
       [](LevelSetOptions& o, Args& a, std::string_view f) { o.time = parse_float(f, a.value(f), 0.0f, 1e9f); }},
      {"--until-converged", [](LevelSetOptions& o, Args&, std::string_view) { o.until_converged = true; }},
      {"--max-steps", [](LevelSetOptions& o, Args& a,
                         std::string_view f) { o.max_steps = parse_count(f, a.value(f), 1, kMostSteps); }},
      {"--sim",
       [](LevelSetOptions& o, Args& a, std::string_view f) {
         o.sim = a.value(f);
         if (o.sim != "cpu" && o.sim != "cuda") throw InputError("--sim: expected cpu or cuda, got '" + o.sim + "'");
       }},
  };
  parse_flags(args, o, flags, "levelset");
  if (o.output.empty()) throw InputError("meniscus levelset: -o out.vdb is required");
  if (o.output.extension() != ".vdb") throw InputError("-o: expected a .vdb file, got '" + o.output.string() + "'");
  if (int(o.steps.has_value()) + int(o.time.has_value()) + int(o.until_converged) > 1)
    throw InputError("meniscus levelset: give one of --steps, --time, --until-converged");
}

void parse_reconstruct(Args& args, Command& command) {
  ReconstructOptions& o = command.reconstruct;
  if (args.done()) throw InputError("meniscus reconstruct: missing input (a point cloud, .ply or .obj)");
  o.input = args.take();
  const std::vector<Flag<ReconstructOptions>> flags = {
      {"-o", [](ReconstructOptions& o, Args& a, std::string_view f) { o.output = a.value(f); }},
      {"--output", [](ReconstructOptions& o, Args& a, std::string_view f) { o.output = a.value(f); }},
      {"--depth", [](ReconstructOptions& o, Args& a,
                     std::string_view f) { o.depth = int(parse_count(f, a.value(f), 2, kMostDepth, "a level")); }},
      {"--start-depth",
       [](ReconstructOptions& o, Args& a, std::string_view f) {
         o.start_depth = int(parse_count(f, a.value(f), 2, kMostDepth, "a level"));
       }},
      {"--alpha",
       [](ReconstructOptions& o, Args& a, std::string_view f) { o.alpha = parse_float(f, a.value(f), 0.0f, 10.0f); }},
      {"--precision",
       [](ReconstructOptions& o, Args& a, std::string_view f) { o.precision = parse_precision_flag(f, a.value(f)); }},
  };
  parse_flags(args, o, flags, "reconstruct");
  if (o.output.empty()) throw InputError("meniscus reconstruct: -o out.ply|out.vdb is required");
  if (o.output.extension() != ".ply" && o.output.extension() != ".vdb")
    throw InputError("-o: expected a .ply or .vdb file, got '" + o.output.string() + "'");
  o.start_depth = std::min(o.start_depth, o.depth);
}

void parse_wavelet_command(Args& args, Command& command) {
  WaveletOptions& o = command.wavelet;
  if (args.done()) throw InputError("meniscus wavelet: missing input (a volume: .nrrd, .nhdr, .vtk or cayley:N)");
  o.volume = args.take();
  const std::vector<Flag<WaveletOptions>> flags = {
      {"-o", [](WaveletOptions& o, Args& a, std::string_view f) { o.output = a.value(f); }},
      {"--output", [](WaveletOptions& o, Args& a, std::string_view f) { o.output = a.value(f); }},
      {"--wavelet",
       [](WaveletOptions& o, Args& a, std::string_view f) {
         o.wavelet = a.value(f);
         if (o.wavelet != "haar" && o.wavelet != "5/3" && o.wavelet != "9/7" && o.wavelet != "dd97" && o.wavelet != "dd137")
           throw InputError("--wavelet: expected haar, 5/3, 9/7, dd97 or dd137, got '" + o.wavelet + "'");
       }},
      {"--levels",
       [](WaveletOptions& o, Args& a, std::string_view f) { o.levels = int(parse_count(f, a.value(f), 1, 32)); }},
      {"--integer", [](WaveletOptions& o, Args&, std::string_view) { o.integer = true; }},
      {"--sim",
       [](WaveletOptions& o, Args& a, std::string_view f) {
         o.sim = a.value(f);
         if (o.sim != "cpu" && o.sim != "cuda") throw InputError("--sim: expected cpu or cuda, got '" + o.sim + "'");
       }},
  };
  parse_flags(args, o, flags, "wavelet");
  if (o.wavelet.empty()) throw InputError("meniscus wavelet: --wavelet haar|5/3|9/7|dd97|dd137 is required");
  if (o.levels == 0) throw InputError("meniscus wavelet: --levels L is required");
}

// "i,j,k" or "i,j,k,r": a seed's centre and radius (`radius` when none is given).
glm::vec4 parse_seed(std::string_view flag, const std::string& text, float radius) {
  std::vector<std::string> parts(1);
  for (const char c : text) {
    if (c == ',') parts.emplace_back();
    else parts.back().push_back(c);
  }
  const std::string bad = std::string(flag) + ": expected x,y,z or x,y,z,r (r > 0), got '" + text + "'";
  if (parts.size() != 3 && parts.size() != 4) throw InputError(bad);
  glm::vec4 seed(0.0f, 0.0f, 0.0f, radius);
  try {
    for (size_t i = 0; i < parts.size(); ++i) seed[int(i)] = parse_float(flag, parts[i], -1e30f, 1e30f);
  } catch (const InputError&) {
    throw InputError(bad);  // the whole seed's form, not one coordinate's
  }
  if (!(seed.w > 0.0f)) throw InputError(bad);
  return seed;
}

void parse_segment(Args& args, Command& command) {
  SegmentOptions& o = command.segment;
  if (args.done()) throw InputError("meniscus segment: missing input (a volume: .nrrd, .nhdr, .vtk, .nii or .nii.gz)");
  o.input = args.take();
  using F = Flag<SegmentOptions>;
  const std::vector<F> flags = {
      {"-o", [](SegmentOptions& o, Args& a, std::string_view f) { o.output = a.value(f); }},
      {"--output", [](SegmentOptions& o, Args& a, std::string_view f) { o.output = a.value(f); }},
      {"--seed",
       [](SegmentOptions& o, Args& a, std::string_view f) { o.seeds.push_back(parse_seed(f, a.value(f), 2.0f)); }},
      {"--seed-mm",
       [](SegmentOptions& o, Args& a, std::string_view f) { o.seeds_mm.push_back(parse_seed(f, a.value(f), 2.0f)); }},
      {"--init-mask",
       [](SegmentOptions& o, Args& a, std::string_view f) {
         const std::string text = a.value(f);
         const size_t comma = text.find(',');
         if (comma == std::string::npos) throw InputError("--init-mask: expected LO,HI, got '" + text + "'");
         o.init_mask = glm::vec2(parse_float(f, text.substr(0, comma), -1e30f, 1e30f),
                                 parse_float(f, text.substr(comma + 1), -1e30f, 1e30f));
         if (!(o.init_mask->x <= o.init_mask->y))
           throw InputError("--init-mask: LO must not exceed HI, got '" + text + "'");
       }},
      {"--lower",
       [](SegmentOptions& o, Args& a, std::string_view f) { o.lower = parse_float(f, a.value(f), -1e30f, 1e30f); }},
      {"--upper",
       [](SegmentOptions& o, Args& a, std::string_view f) { o.upper = parse_float(f, a.value(f), -1e30f, 1e30f); }},
      {"--curvature",
       [](SegmentOptions& o, Args& a, std::string_view f) { o.curvature = parse_float(f, a.value(f), 0.0f, 0.99f); }},
      {"--data-term",
       [](SegmentOptions& o, Args& a, std::string_view f) {
         o.data_term = a.value(f);
         if (o.data_term != "linear" && o.data_term != "tanh")
           throw InputError("--data-term: expected linear or tanh, got '" + o.data_term + "'");
       }},
      {"--steps", [](SegmentOptions& o, Args& a,
                     std::string_view f) { o.steps = int(parse_count(f, a.value(f), 0, kMostSteps)); }},
      {"--until-converged", [](SegmentOptions& o, Args&, std::string_view) { o.steps.reset(); }},
      {"--rms", [](SegmentOptions& o, Args& a, std::string_view f) { o.rms = parse_float(f, a.value(f), 0.0f, 1e3f); }},
      {"--tile-age",
       [](SegmentOptions& o, Args& a, std::string_view f) { o.tile_age = parse_float(f, a.value(f), 0.0f, 1e6f); }},
      {"--max-steps", [](SegmentOptions& o, Args& a,
                         std::string_view f) { o.max_steps = int(parse_count(f, a.value(f), 1, kMostSteps)); }},
      {"--sim",
       [](SegmentOptions& o, Args& a, std::string_view f) {
         o.sim = a.value(f);
         if (o.sim != "cpu" && o.sim != "cuda") throw InputError("--sim: expected cpu or cuda, got '" + o.sim + "'");
       }},
  };
  parse_flags(args, o, flags, "segment");
  if (!o.lower || !o.upper) throw InputError("meniscus segment: --lower L and --upper U are required");
  if (o.steps && o.tile_age)
    throw InputError("meniscus segment: --tile-age is a convergence rule; --steps N runs a fixed number of steps");
  if (!(*o.lower < *o.upper))
    throw InputError("meniscus segment: --lower (" + limits::number_text(*o.lower) + ") must be below --upper (" +
                     limits::number_text(*o.upper) + ")");
  if (o.seeds.empty() && o.seeds_mm.empty() && !o.init_mask)
    throw InputError("meniscus segment: give at least one --seed i,j,k[,r], --seed-mm x,y,z[,r] or --init-mask LO,HI");
  if (o.output.empty()) throw InputError("meniscus segment: -o out.nrrd|out.vdb|out.ply is required");
  const std::string ext = o.output.extension().string();
  if (ext != ".nrrd" && ext != ".vdb" && ext != ".ply")
    throw InputError("-o: expected a .nrrd (mask), .vdb (level set) or .ply (surface) file, got '" + o.output.string() + "'");
}


// Every verb `meniscus` knows. A new verb is one row here, one in usage_text(), one Verb value
// and its case in main().
struct VerbEntry {
  std::string_view name;
  Verb verb;
  void (*parse)(Args& args, Command& command);  // reads the rest of the line; null: nothing to read
};

constexpr VerbEntry kVerbs[] = {
    {"run", Verb::Run, parse_run},
    {"capture", Verb::Capture, parse_capture},
    {"mesh", Verb::Mesh, parse_mesh},
    {"levelset", Verb::LevelSet, parse_levelset},
    {"reconstruct", Verb::Reconstruct, parse_reconstruct},
    {"segment", Verb::Segment, parse_segment},
    {"wavelet", Verb::Wavelet, parse_wavelet_command},
    {"help", Verb::Help, nullptr},
    {"--help", Verb::Help, nullptr},
    {"-h", Verb::Help, nullptr},
    {"version", Verb::Version, nullptr},
    {"--version", Verb::Version, nullptr},
};

}  // namespace

std::string usage_text() {
  return "usage:\n"
         "  meniscus run <scene> [--size WxH] [--frames N] [--sim cpu|cuda|auto] [--device NAME]\n"
         "                       [--validation|--no-validation] [--dump-graph out.dot] [--timings FILE]...\n"
         "                       [--fluid-debug none|depth|thickness|curvature|noise]\n"
         "  meniscus capture <scene> [--size WxH] [--png out.png] [--frames N] [--warmup W]\n"
         "                       [--timings FILE]... [--sim cpu|cuda|auto] [--device NAME]\n"
         "                       [--validation|--no-validation] [--dump-graph out.dot] [--export-mesh frame.ply]\n"
         "                       [--export-vdb frame.vdb]\n"
         "                       [--fluid-debug none|depth|thickness|curvature|noise]\n"
         "  meniscus mesh <volume.nrrd|.nhdr|.vtk|levelset.vdb|cayley:N|sphere:N|torus:N> --iso V -o out.ply|.obj\n"
         "                       [--sim cpu|vulkan|cuda] [--device NAME] [--validation]\n"
         "  meniscus levelset <in.vdb|mesh.ply|mesh.obj|volume --iso V> -o out.vdb [--resolution N] [--mcf ALPHA]\n"
         "                       [--speed F] [--scheme upwind|weno5] [--steps N | --time T | --until-converged]\n"
         "                       [--max-steps N] [--sim cpu|cuda] [--precision float32|fixed16]\n"
         "  meniscus reconstruct <points.ply|.obj> --depth D -o out.ply|.vdb [--start-depth d] [--alpha A]\n"
         "                       [--precision float32|fixed16]\n"
         "  meniscus segment <volume.nrrd|.nhdr|.vtk|.nii|.nii.gz> --seed i,j,k[,r]... --lower L --upper U\n"
         "                       -o out.nrrd|.vdb|.ply [--seed-mm x,y,z[,r]]... [--init-mask LO,HI]\n"
         "                       [--curvature W] [--data-term linear|tanh] [--steps N | --until-converged]\n"
         "                       [--rms E] [--tile-age V] [--max-steps N] [--sim cpu|cuda]\n"
         "  meniscus wavelet <volume> --wavelet haar|5/3|9/7|dd97|dd137 --levels L [--integer] [--sim cpu|cuda]\n"
         "                       [-o coeffs.raw]\n"
         "  meniscus help | --version\n"
         "run --frames N exits after N frames (default: when the window closes)\n"
         "capture records --frames N (default 1) after --warmup W (default 0) frames; without --png\n"
         "  or --timings it writes out/<scene>.png\n"
         "validation layers are on by default in Debug builds\n"
         "timing files (--timings may repeat): .json (statistics), .csv (per frame),\n"
         "  .trace.json (chrome://tracing)\n";
}

Command parse_cli(int argc, const char* const* argv) {
  Args args(argc, argv);
  Command command;
  if (args.done()) return command;  // bare `meniscus`: help
  const std::string word = args.take();
  for (const VerbEntry& entry : kVerbs) {
    if (entry.name != word) continue;
    command.verb = entry.verb;
    if (entry.parse) entry.parse(args, command);
    return command;
  }
  throw InputError("unknown command '" + word + "' (expected run, capture, mesh, levelset, reconstruct, segment, wavelet, help or --version)");
}

}  // namespace meniscus
