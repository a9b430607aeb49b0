// meniscus-bench sph: ms per simulation step of the SPH stage for growing particle counts, on
// every backend available (CUDA is reported as skipped, with the reason, when no device
// answers), per case (--cases):
//  - collapsing_block: a block of water a third of its tank wide collapses (the solver's
//    minimum iterations most steps: what a step costs at fixed work);
//  - tall_column: a column eight times as tall as wide at rest in a tank of its footprint
//    (pressure has to travel through every layer, so the density solve needs many iterations);
//  - splash: a block thrown down at 4 m/s into a shallow pool (violent compression).
// After a warm-up the timed steps are fixed-size, so every backend and count does the same
// simulated work; each line has the iterations per step, which is where the cases differ.
// --particle-volume F sets each particle's volume to F times the spacing cubed (SphParams::
// particle_volume; SPlisHSPlasH's is 0.8), instead of the lattice's own: the same problem as a
// peer that fills blocks that way.
//
// --scene FILE --frames N instead runs a scene's first SPH stage frame by frame (1/60 s) and
// prints one line per frame: count, substeps, solver iterations, errors, contacts, time.
#include <tbb/info.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <string>
#include <vector>

#include "engine/app/scene.h"
#include "engine/app/sph_settings.h"
#include "engine/core/error.h"
#include "engine/core/input_limits.h"
#include "engine/profile/cpu_timer.h"
#include "sim/sph/sph_cuda.h"
#include "sim/sph/sph_stage.h"
#include "tools/bench/bench_setup.h"

namespace meniscus::bench {
namespace sph_bench {
namespace {

using Clock = std::chrono::steady_clock;
using profile::ms_since;

const char* const kCases[] = {"collapsing_block", "tall_column", "splash"};  // make_case builds each

struct Options {
  int threads = int(tbb::info::default_concurrency());
  std::vector<uint32_t> counts{65536, 262144, 1048576};
  int steps = 5;
  int warmup = 3;
  std::vector<std::string> backends{"cpu", "cuda"};
  std::vector<std::string> cases{std::begin(kCases), std::end(kCases)};
  std::string scene;
  int frames = 60;
  float particle_volume = 0.0f;  // the lattice's own
};

Options parse(int argc, char** argv) {
  Options o;
  for (BenchFlags flags(argc, argv); flags.next();) {
    const std::string flag = flags.flag();
    if (flag == "--threads")
      o.threads = flags.integer(1, 1024);
    else if (flag == "--steps")
      o.steps = flags.integer(1, 1'000'000);
    else if (flag == "--warmup")
      o.warmup = flags.integer(0, 1'000'000);
    else if (flag == "--frames")
      o.frames = flags.integer(1, 1'000'000);
    else if (flag == "--scene") o.scene = flags.value();
    else if (flag == "--particle-volume") {
      o.particle_volume = float(flags.number(0, 1.5, sim::SphParams::kParticleVolumeRule));
      if (!sim::SphParams::particle_volume_allowed(o.particle_volume))
        throw InputError(std::string("--particle-volume: expected ") + sim::SphParams::kParticleVolumeRule + ", got " +
                         limits::number_text(o.particle_volume));
    } else if (flag == "--particles") {
      o.counts.clear();
      for (const std::string& item : split_list(flags.value()))
        o.counts.push_back(uint32_t(parse_integer(flag, item, 1, 100'000'000)));
    } else if (flag == "--backends") {
      o.backends.clear();
      for (const std::string& item : split_list(flags.value())) {
        if (item != "cpu" && item != "cuda") throw InputError("sph: --backends: expected cpu or cuda, got '" + item + "'");
        o.backends.push_back(item);
      }
    } else if (flag == "--cases") {
      o.cases.clear();
      for (const std::string& item : split_list(flags.value())) {
        if (std::find(std::begin(kCases), std::end(kCases), item) == std::end(kCases))
          throw InputError("sph: --cases: expected collapsing_block, tall_column or splash, got '" + item + "'");
        o.cases.push_back(item);
      }
    } else
      throw InputError("sph: unknown flag '" + flag + "'");
  }
  return o;
}

// Fixed steps at the CFL limit of the fastest speed a case reaches (a fall from `height` plus
// `thrown`), as the adaptive stepping would take them.
float cfl_step(const sim::SphParams& p, float height, float thrown = 0.0f) {
  return 0.4f * p.diameter() / (thrown + std::sqrt(2.0f * 9.81f * height));
}

struct SphCase {
  sim::SphParams params;
  // Simulated time before the timed steps: the column has to settle under its weight, and the
  // thrown block to reach the pool (the first steps of either are the solver's easiest).
  float warmup_s = 0.0f;
};

// About `count` particles at a spacing of 1 cm, as `name` describes (see the top of the file).
SphCase make_case(const std::string& name, uint32_t count, float particle_volume) {
  SphCase c;
  sim::SphParams& p = c.params;
  p.particle_radius = 0.005f;
  p.particle_volume = particle_volume;
  p.adaptive = false;
  const float d = p.diameter();
  if (name == "collapsing_block") {  // n x 2n x n in a tank 3n x 3n x n
    const int n = std::max(2, int(std::lround(std::cbrt(count / 2.0))));
    p.domain = {{0, 0, 0}, {3 * n * d, 3 * n * d, n * d}};
    p.fills.push_back({{{0, 0, 0}, {n * d, 2 * n * d, n * d}}, {0, 0, 0}});
    p.fixed_dt = cfl_step(p, 2 * n * d);
  } else if (name == "tall_column") {  // n x 8n x n in a tank n x 9n x n
    const int n = std::max(2, int(std::lround(std::cbrt(count / 8.0))));
    p.domain = {{0, 0, 0}, {n * d, 9 * n * d, n * d}};
    p.fills.push_back({{{0, 0, 0}, {n * d, 8 * n * d, n * d}}, {0, 0, 0}});
    p.fixed_dt = cfl_step(p, 8 * n * d);
    c.warmup_s = 0.2f;
  } else {  // splash: a 3n x n/2 x 2n pool, and an n x n x n block 1.5 n up thrown down at 4 m/s
    const int n = std::max(2, int(std::lround(std::cbrt(count / 4.0))));
    p.domain = {{0, 0, 0}, {3 * n * d, 4 * n * d, 2 * n * d}};
    p.fills.push_back({{{0, 0, 0}, {3 * n * d, 0.5f * n * d, 2 * n * d}}, {0, 0, 0}});
    p.fills.push_back({{{n * d, 1.5f * n * d, 0.5f * n * d}, {2 * n * d, 2.5f * n * d, 1.5f * n * d}}, {0, -4.0f, 0}});
    p.fixed_dt = cfl_step(p, 2.5f * n * d, 4.0f);
    c.warmup_s = n * d / 4.0f + 0.01f;  // the block's fall to the pool, then into it
  }
  return c;
}

std::unique_ptr<sim::SphStage> make_stage(const std::string& backend, const sim::SphParams& params, std::string* why) {
  if (backend == "cpu") return sim::make_sph_cpu(params);
  try {
    return sim::make_sph_cuda_headless(params);
  } catch (const DeviceError& error) {
    *why = error.what();
    return nullptr;
  }
}

void run_counts(const Options& o) {
  for (const std::string& name : o.cases)
  for (uint32_t requested : o.counts) {
    const SphCase sph_case = make_case(name, requested, o.particle_volume);
    const sim::SphParams& params = sph_case.params;
    const int warmup = std::max(o.warmup, int(std::ceil(sph_case.warmup_s / params.fixed_dt)));
    for (const std::string& backend : o.backends) {
      profile::JsonWriter json;
      json.begin_object();
      json.key("bench").value("sph");
      json.key("case").value(name);
      json.key("backend").value(backend);
      json.key("threads").value(uint64_t(o.threads));
      std::string why;
      auto stage = make_stage(backend, params, &why);
      if (!stage) {
        json.key("requested_particles").value(uint64_t(requested));
        json.key("skipped").value(why);
        json.end_object();
        print_line(json);
        continue;
      }
      for (int s = 0; s < warmup; ++s) stage->step(params.fixed_dt);
      int density_iterations = 0, divergence_iterations = 0, most_density_iterations = 0;
      const auto start = Clock::now();
      for (int s = 0; s < o.steps; ++s) {
        stage->step(params.fixed_dt);
        // The CUDA backend reports a step's statistics a frame late; the benchmark times each
        // step to its end and reads its own figures.
        stage->synchronize();
        density_iterations += stage->stats().density_iterations;
        most_density_iterations = std::max(most_density_iterations, int(stage->stats().density_iterations));
        divergence_iterations += stage->stats().divergence_iterations;
      }
      const double wall = ms_since(start);
      json.key("particles").value(uint64_t(stage->count()));
      json.key("dt_s").value(double(params.fixed_dt));
      json.key("particle_volume").value(double(params.particle_volume));
      json.key("density_tolerance").value(double(params.density_tolerance));
      json.key("divergence_tolerance").value(double(params.divergence_tolerance));
      json.key("warmup_steps").value(uint64_t(warmup));
      json.key("steps").value(uint64_t(o.steps));
      json.key("ms_per_step").value(wall / o.steps);
      if (auto device = stage->device_ms()) json.key("device_ms_last_step").value(*device);
      json.key("density_iterations_per_step").value(double(density_iterations) / o.steps);
      json.key("most_density_iterations").value(uint64_t(most_density_iterations));
      json.key("divergence_iterations_per_step").value(double(divergence_iterations) / o.steps);
      json.key("particle_steps_per_s").value(double(stage->count()) * o.steps / (wall / 1e3));
      json.end_object();
      print_line(json);
    }
  }
}

void run_scene(const Options& o) {
  const Scene scene = load_scene(o.scene);
  const StageConfig* config = nullptr;
  for (const StageConfig& s : scene.stages)
    if (s.type == "sph" && !config) config = &s;
  if (!config) throw InputError(o.scene + ": no [[stage]] with type = \"sph\"");
  const sim::SphParams params = read_sph_settings(config->params);
  for (const std::string& backend : o.backends) {
    std::string why;
    auto stage = make_stage(backend, params, &why);
    if (!stage) {
      std::printf("{\"bench\":\"sph\",\"scene\":\"%s\",\"backend\":\"%s\",\"skipped\":\"%s\"}\n", scene.name.c_str(),
                  backend.c_str(), why.c_str());
      continue;
    }
    for (int frame = 1; frame <= o.frames; ++frame) {
      const auto start = Clock::now();
      stage->step(1.0 / 60.0);
      stage->synchronize();  // the frame's end, and its own statistics (see above)
      const double ms = ms_since(start);
      const sim::SphStats& s = stage->stats();
      float max_speed = 0.0f;
      for (const sim::Particle& p : stage->particles())
        max_speed = std::max(max_speed, std::sqrt(p.velocity[0] * p.velocity[0] + p.velocity[1] * p.velocity[1] +
                                                  p.velocity[2] * p.velocity[2]));
      profile::JsonWriter json;
      json.begin_object();
      json.key("bench").value("sph");
      json.key("scene").value(scene.name);
      json.key("backend").value(backend);
      json.key("frame").value(uint64_t(frame));
      json.key("time_s").value(stage->time());
      json.key("particles").value(uint64_t(stage->count()));
      json.key("substeps").value(uint64_t(s.substeps));
      json.key("density_iterations").value(uint64_t(s.density_iterations));
      json.key("divergence_iterations").value(uint64_t(s.divergence_iterations));
      json.key("density_error").value(double(s.density_error));
      json.key("max_speed").value(double(max_speed));
      json.key("wall_contacts").value(s.wall_contacts);
      json.key("emitted").value(s.emitted);
      json.key("blocked").value(s.blocked);
      json.key("removed").value(s.removed);
      json.key("ms").value(ms);
      json.end_object();
      print_line(json);
    }
  }
}

}  // namespace
}  // namespace sph_bench

int run_sph(int argc, char** argv) {
  using namespace sph_bench;  // this file's helpers
  const Options o = parse(argc, argv);
  const auto environment = benchmark_environment(o.threads);
  if (!o.scene.empty()) run_scene(o);
  else run_counts(o);
  return 0;
}

}  // namespace meniscus::bench
