// meniscus-bench fluid: per-pass GPU times of the screen-space fluid chain, in the structure of
// the thesis' Table 5.1 (curvature flow at quarter/half/full resolution against the separable
// bilateral Gaussian), plus the narrow-range filter as the modern peer and foam on top of the
// quarter-resolution setting. Every configuration renders the same particle block in the same
// run; each line carries its ratio to the bilateral baseline so lavapipe runs are comparable.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "engine/core/context.h"
#include "engine/core/error.h"
#include "engine/profile/json_writer.h"
#include "passes/fluid/fluid_offscreen.h"
#include "tools/bench/bench_setup.h"

namespace meniscus::bench {
namespace fluid_bench {
namespace {

struct Options {
  uint32_t width = 1920, height = 1080;
  std::vector<uint32_t> particles{65536, 1048576};
  int repeat = 3;
  std::string device;
};

std::vector<uint32_t> parse_list(const std::string& flag, const std::string& text) {
  std::vector<uint32_t> out;
  for (const std::string& item : split_list(text)) out.push_back(uint32_t(parse_integer(flag, item, 1, 1 << 26)));
  if (out.empty()) throw InputError(flag + ": expected a comma-separated list, got '" + text + "'");
  return out;
}

Options parse(int argc, char** argv) {
  Options o;
  for (BenchFlags flags(argc, argv); flags.next();) {
    const std::string flag = flags.flag();
    if (flag == "--particles") o.particles = parse_list(flag, flags.value());
    else if (flag == "--repeat")
      o.repeat = flags.integer(1, 1000);
    else if (flag == "--device") o.device = flags.value();
    else if (flag == "--size") {
      const ImageSize size = parse_image_size(flag, flags.value(), 16, 16384);
      o.width = size.width;
      o.height = size.height;
    } else {
      throw InputError("fluid: unknown flag '" + flag + "' (--size WxH, --particles N,M, --repeat R, --device NAME)");
    }
  }
  return o;
}

// A cube of fluid on a jittered lattice (`count` rounded to a cube number), 2 m across, with
// the radius the spacing asks for so the block reads as one body at every count.
std::vector<sim::Particle> fluid_block(uint32_t count, float& radius) {
  const int n = std::max(1, int(std::lround(std::cbrt(double(count)))));
  const float spacing = 2.0f / float(n);
  radius = spacing * 0.9f;
  std::vector<sim::Particle> out;
  out.reserve(size_t(n) * n * n);
  uint32_t hash = 12345;
  auto jitter = [&]() {
    hash = hash * 1664525u + 1013904223u;
    return (float(hash >> 8) / float(1u << 24) - 0.5f) * 0.4f * spacing;
  };
  for (int z = 0; z < n; ++z)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        sim::Particle p{};
        p.position[0] = -1.0f + (x + 0.5f) * spacing + jitter();
        p.position[1] = (y + 0.5f) * spacing + jitter();
        p.position[2] = -1.0f + (z + 0.5f) * spacing + jitter();
        p.density = 1000.0f;
        p.agitation = float((x * 7 + y * 13 + z * 3) % 5);  // some agitated particles for foam
        out.push_back(p);
      }
  return out;
}

struct Config {
  const char* name;
  passes::FluidFilter filter;
  uint32_t divisor;
  uint32_t iterations;
  bool foam;
};

// Table 5.1's rows (iterations as in the thesis), then the peer and foam.
const std::vector<Config> kConfigs{
    {"bilateral", passes::FluidFilter::Bilateral, 1, 1, false},
    {"curvature_flow_quarter", passes::FluidFilter::CurvatureFlow, 4, 15, false},
    {"curvature_flow_half", passes::FluidFilter::CurvatureFlow, 2, 40, false},
    {"curvature_flow_full", passes::FluidFilter::CurvatureFlow, 1, 100, false},
    {"narrow_range", passes::FluidFilter::NarrowRange, 1, 1, false},
    {"curvature_flow_quarter_foam", passes::FluidFilter::CurvatureFlow, 4, 15, true},
};

}  // namespace
}  // namespace fluid_bench

int run_fluid(int argc, char** argv) {
  using namespace fluid_bench;  // this file's helpers
  const Options o = parse(argc, argv);
  Context context(ContextOptions{.preferred_device = o.device});
  const VkExtent2D extent{o.width, o.height};
  passes::FluidCamera camera;
  camera.position = {2.6f, 2.4f, 3.4f};
  camera.target = {0.0f, 0.8f, 0.0f};
  camera.ground = true;
  for (const uint32_t requested : o.particles) {
    float radius = 0.0f;
    const std::vector<sim::Particle> particles = fluid_block(requested, radius);
    passes::FluidOffscreen offscreen(context, extent, particles);
    double baseline_smooth = 0.0, baseline_chain = 0.0;
    for (const Config& config : kConfigs) {
      passes::FluidSettings settings;
      settings.radius = radius;
      settings.filter = config.filter;
      settings.resolution_divisor = config.divisor;
      settings.iterations = config.iterations;
      settings.foam = config.foam;
      offscreen.render(camera, settings, false);  // warm-up: pipelines, transients, caches
      std::map<std::string, std::vector<double>> samples;
      std::vector<double> chain;
      for (int r = 0; r < o.repeat; ++r) {
        double total = 0.0;
        for (const profile::PassSample& pass : offscreen.render(camera, settings, false).passes) {
          if (pass.name.rfind("fluid.", 0) != 0) continue;
          samples[pass.name].push_back(pass.gpu_ms);
          total += pass.gpu_ms;
        }
        chain.push_back(total);
      }
      const double smooth = upper_median(samples["fluid.smooth"]), whole = upper_median(chain);
      if (config.filter == passes::FluidFilter::Bilateral) {
        baseline_smooth = smooth;
        baseline_chain = whole;
      }
      profile::JsonWriter json;
      json.begin_object();
      json.key("bench").value("fluid");
      json.key("device").value(context.info().name);
      json.key("width").value(o.width);
      json.key("height").value(o.height);
      json.key("particles").value(uint64_t(particles.size()));
      json.key("config").value(config.name);
      json.key("filter").value(passes::fluid_filter_name(config.filter));
      json.key("resolution_divisor").value(config.divisor);
      json.key("iterations").value(config.iterations);
      json.key("foam").value(config.foam ? "on" : "off");
      json.key("repeat").value(uint64_t(o.repeat));
      json.key("pass_ms").begin_object();
      for (const auto& [name, values] : samples) json.key(name).value(upper_median(values));
      json.end_object();
      json.key("smooth_ms").value(smooth);
      json.key("chain_ms").value(whole);
      if (baseline_smooth > 0) json.key("smooth_vs_bilateral").value(smooth / baseline_smooth);
      if (baseline_chain > 0) json.key("chain_vs_bilateral").value(whole / baseline_chain);
      json.end_object();
      print_line(json);
    }
  }
  return 0;
}

}  // namespace meniscus::bench
