// meniscus-bench levelset: mean-curvature flow on spheres, our sorted tile list against
// OpenVDB's LevelSetFilter::meanCurvature in the same run on the same threads: ms per step,
// active tiles and voxels, voxel updates per second, memory, and the radius error after N steps
// against the analytic r(t) of each implementation's own curvature convention.
// Then the same on Lucy (scenes/data/vtk-data/lucy.ply, --lucy-resolution voxels along her
// height), each side scan-converting the mesh itself at the same voxel size.
// --enright 128,256: the Enright test (WENO5/RK3, one period) at those resolutions: volume
// loss, area, centroid shift, time; OpenVDB's own Enright (LevelSetAdvection, its tracker,
// half width 3) first in the same run, unless --enright-peer none.
// --precision float32,fixed16 (both by default): our side runs once per tile storage; a
// fixed16 line carries its memory and error against the float32 run's (§6.4).
#include <tbb/global_control.h>
#include <tbb/info.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/error.h"
#include "engine/profile/cpu_timer.h"
#include "engine/profile/json_writer.h"
#include "sim/common/mesh_reader.h"
#include "sim/levelset/curvature_flow.h"
#include "sim/levelset/enright.h"
#include "sim/levelset/level_set_builder.h"
#include "sim/levelset/level_set_measures.h"
#include "sim/levelset/mesh_level_set.h"
#include "tools/bench/bench_setup.h"
#include "tools/bench/levelset_cuda_bench.h"
#include "tools/bench/peers.h"

namespace meniscus::bench {
namespace levelset_bench {
namespace {

using Clock = std::chrono::steady_clock;
using profile::ms_since;

struct Options {
  int threads = int(tbb::info::default_concurrency());
  std::vector<float> radii{100.0f, 200.0f, 400.0f};
  std::string lucy = "scenes/data/vtk-data/lucy.ply";
  int lucy_resolution = 512;  // 0: no Lucy case
  int steps = 10;
  bool radii_given = false;
  std::vector<int> enright;  // resolutions
  // Ours: the Enright set-up's defaults unless the flags say otherwise.
  float enright_gamma = sim::levelset::EnrightSetup{}.gamma;
  int enright_reinit = sim::levelset::EnrightSetup{}.reinit_iterations;
  int enright_reinit_every = sim::levelset::EnrightSetup{}.reinit_every;
  float enright_cfl = sim::levelset::EnrightSetup{}.cfl;
  bool enright_peer = true;
  std::vector<sim::levelset::TilePrecision> precisions{sim::levelset::TilePrecision::kFloat32,
                                                       sim::levelset::TilePrecision::kFixed16};
};

Options parse(int argc, char** argv) {
  Options o;
  for (BenchFlags flags(argc, argv); flags.next();) {
    const std::string flag = flags.flag();
    if (flag == "--threads")
      o.threads = flags.integer(1, 1024);
    else if (flag == "--steps")
      o.steps = flags.integer(1, 1'000'000);
    else if (flag == "--radii") {
      o.radii.clear();
      o.radii_given = true;
      for (const std::string& item : split_list(flags.value()))
        o.radii.push_back(float(parse_number(flag, item, 4, 1000)));
    } else if (flag == "--lucy") {
      o.lucy = flags.value();
    } else if (flag == "--lucy-resolution") {
      o.lucy_resolution = flags.integer(0, 4096, "0: no Lucy case");
      if (o.lucy_resolution != 0 && o.lucy_resolution < 32)
        throw InputError("--lucy-resolution: must be 0 (no Lucy case) or in [32, 4096], got " +
                         std::to_string(o.lucy_resolution));
    } else if (flag == "--enright") {
      for (const std::string& item : split_list(flags.value()))
        o.enright.push_back(int(parse_integer(flag, item, 16, 2048)));
    } else if (flag == "--enright-gamma") {
      o.enright_gamma = float(flags.number(1, 8, "voxels"));
    } else if (flag == "--enright-reinit") {
      o.enright_reinit = flags.integer(0, 20);
    } else if (flag == "--enright-reinit-every") {
      o.enright_reinit_every = flags.integer(1, 1000, "steps");
    } else if (flag == "--enright-cfl") {
      o.enright_cfl = float(flags.number(0, 1));
      if (o.enright_cfl == 0.0f) throw InputError("--enright-cfl: must be in (0, 1], got 0");
    } else if (flag == "--enright-peer") {
      const std::string v = flags.value();
      if (v != "openvdb" && v != "none") throw InputError("--enright-peer: expected openvdb or none, got '" + v + "'");
      o.enright_peer = v == "openvdb";
    } else if (flag == "--precision") {
      o.precisions.clear();
      for (const std::string& item : split_list(flags.value())) {
        const auto precision = sim::levelset::parse_precision(item);
        if (!precision) throw InputError("--precision: each must be float32 or fixed16, got '" + item + "'");
        o.precisions.push_back(*precision);
      }
      if (o.precisions.empty()) throw InputError("--precision: name float32, fixed16 or both");
    } else throw InputError("levelset: unknown flag '" + flag + "'");
  }
  return o;
}

// One mean-curvature-flow line: a sphere of `radius` voxels (with its radius error), or Lucy
// (radius 0: `resolution` voxels along her height, no analytic answer).
struct McfLine {
  std::string impl;
  const char* precision = nullptr;  // ours only
  float radius = 0;
  int resolution = 0;
  double ms_per_step = 0;
  uint64_t tiles = 0, voxels = 0, bytes = 0;
  double radius_error = 0;
  double reference_ms = 0;  // OpenVDB's, for the speed-up
  // fixed16 against the float32 run: memory ratio, the radius error ratio (spheres), the
  // largest |Δφ| near the front and the relative volume change.
  double memory_ratio = 0, error_ratio = 0, phi_difference = -1, volume_change = 0;
};

void emit(const McfLine& line, const Options& o) {
  profile::JsonWriter json;
  json.begin_object();
  json.key("bench").value("levelset");
  json.key("case").value(line.radius > 0 ? "sphere_mcf" : "lucy_mcf");
  if (line.radius > 0) json.key("radius_voxels").value(double(line.radius));
  else json.key("resolution").value(uint64_t(line.resolution));
  json.key("impl").value(line.impl);
  if (line.precision) json.key("precision").value(line.precision);
  json.key("threads").value(uint64_t(o.threads));
  json.key("steps").value(uint64_t(o.steps));
  json.key("ms_per_step").value(line.ms_per_step);
  json.key("active_tiles").value(line.tiles);
  json.key("active_voxels").value(line.voxels);
  json.key("voxel_updates_per_s").value(double(line.voxels) / (line.ms_per_step / 1e3));
  json.key("memory_bytes").value(line.bytes);
  if (line.radius > 0) json.key("radius_error_voxels").value(line.radius_error);
  if (line.reference_ms > 0) json.key("speedup_vs_openvdb").value(line.reference_ms / line.ms_per_step);
  if (line.memory_ratio > 0) json.key("memory_vs_float32").value(line.memory_ratio);
  if (line.error_ratio > 0) json.key("radius_error_vs_float32").value(line.error_ratio);
  if (line.phi_difference >= 0) {
    json.key("max_phi_difference_vs_float32").value(line.phi_difference);
    json.key("volume_change_vs_float32").value(line.volume_change);
  }
  json.end_object();
  print_line(json);
}

// OpenVDB's Enright at `resolution`; nullopt when it is not built or not asked for.
std::optional<EnrightPeerResult> run_enright_peer(int resolution, const Options& o) {
  if (!o.enright_peer) return std::nullopt;
  const float half_width = 3.0f;  // openvdb::LEVEL_SET_HALF_WIDTH, its default band
  const std::optional<EnrightPeerResult> r = openvdb_enright(resolution, half_width);
  if (!r) return r;
  profile::JsonWriter json;
  json.begin_object();
  json.key("bench").value("levelset");
  json.key("case").value("enright");
  json.key("resolution").value(uint64_t(resolution));
  json.key("impl").value(openvdb_enright_version());
  json.key("scheme").value("hjweno5-tvdrk2");
  json.key("gamma_voxels").value(double(half_width));
  json.key("threads").value(uint64_t(o.threads));
  json.key("period").value(3.0);
  json.key("steps").value(r->steps);
  json.key("seconds").value(r->seconds);
  json.key("max_active_voxels").value(r->max_active_voxels);
  json.key("memory_bytes").value(r->memory_bytes);
  json.key("volume_loss").value(r->volume_loss);
  json.key("initial_area_voxels2").value(r->initial_area);
  json.key("final_area_voxels2").value(r->final_area);
  json.end_object();
  print_line(json);
  return r;
}

void run_enright_case(int resolution, sim::levelset::TilePrecision precision, const std::optional<EnrightPeerResult>& peer,
                      const Options& o) {
  sim::levelset::EnrightSetup setup;
  setup.resolution = resolution;
  setup.gamma = o.enright_gamma;
  setup.reinit_iterations = o.enright_reinit;
  setup.reinit_every = o.enright_reinit_every;
  setup.cfl = o.enright_cfl;
  setup.precision = precision;
  const sim::levelset::EnrightResult r = run_enright(setup);
  profile::JsonWriter json;
  json.begin_object();
  json.key("bench").value("levelset");
  json.key("case").value("enright");
  json.key("resolution").value(uint64_t(resolution));
  json.key("impl").value("meniscus-cpu-stl");
  json.key("precision").value(sim::levelset::precision_name(precision));
  json.key("scheme").value("weno5-rk3");
  json.key("gamma_voxels").value(double(setup.gamma));
  json.key("reinit_iterations").value(uint64_t(setup.reinit_iterations));
  json.key("reinit_every").value(uint64_t(setup.reinit_every));
  json.key("cfl").value(double(setup.cfl));
  json.key("threads").value(uint64_t(o.threads));
  json.key("period").value(double(setup.period));
  json.key("steps").value(uint64_t(r.steps));
  json.key("seconds").value(r.seconds);
  json.key("ms_per_step").value(r.seconds * 1e3 / std::max<uint32_t>(r.steps, 1));
  json.key("max_active_tiles").value(uint64_t(r.max_tiles));
  json.key("max_memory_bytes").value(uint64_t(r.max_bytes));
  json.key("initial_volume_voxels").value(r.initial_volume);
  json.key("final_volume_voxels").value(r.final_volume);
  json.key("volume_loss").value(r.volume_loss);
  json.key("initial_area_voxels2").value(r.initial_area);
  json.key("final_area_voxels2").value(r.final_area);
  json.key("max_area_voxels2").value(r.max_area);
  json.key("centroid_shift_voxels").value(r.centroid_shift);
  json.key("centroid_shift_domain").value(r.centroid_shift / resolution);
  if (peer) {
    json.key("speedup_vs_openvdb").value(peer->seconds / r.seconds);
    json.key("volume_loss_vs_openvdb").value(r.volume_loss / peer->volume_loss);
  }
  json.end_object();
  print_line(json);
}

// The largest |φa − φb| over the voxels near a's front (|φa| < 1) whose tile both lists hold:
// how far a fixed16 evolution drifted from the float32 one.
double max_phi_difference(const sim::levelset::SortedTileList& a, const sim::levelset::SortedTileList& b) {
  double worst = 0;
  for (const sim::levelset::TileEntry& e : a.active()) {
    const auto at = b.find(e.key);
    if (!at) continue;
    const uint32_t other = b.active()[*at].id;
    for (int v = 0; v < sim::levelset::kTileVoxels; ++v) {
      const float phi = a.value(e.id, v);
      if (std::abs(phi) < 1.0f) worst = std::max(worst, double(std::abs(phi - b.value(other, v))));
    }
  }
  return worst;
}

// What one precision's run left: the list and the line describing it.
struct McfRun {
  sim::levelset::SortedTileList list;
  McfLine line;
};

// Runs o.steps of α = 1 mean-curvature flow on `list` and times them.
McfRun run_mcf(sim::levelset::SortedTileList list, const Options& o) {
  sim::levelset::CurvatureFlow flow(1.0f);
  const float dt = flow.max_time_step();
  const auto start = Clock::now();
  for (int s = 0; s < o.steps; ++s) {
    flow.step(list, dt);
    list.manage();
  }
  McfLine line;
  line.impl = "meniscus-cpu-stl";
  line.precision = sim::levelset::precision_name(list.precision());
  line.ms_per_step = ms_since(start) / o.steps;
  line.tiles = list.size();
  line.voxels = list.size() * sim::levelset::kTileVoxels;
  line.bytes = list.bytes();
  return {std::move(list), line};
}

// A fixed16 run against the float32 run of the same case: memory, radius error (spheres), the
// largest |Δφ| near the front and the relative volume change.
void compare_with_float32(McfRun& run, const McfRun& float32) {
  McfLine& line = run.line;
  line.memory_ratio = double(line.bytes) / double(float32.line.bytes);
  if (float32.line.radius_error > 0) line.error_ratio = line.radius_error / float32.line.radius_error;
  line.phi_difference = max_phi_difference(float32.list, run.list);
  line.volume_change =
      sim::levelset::inside_moments(run.list).volume / sim::levelset::inside_moments(float32.list).volume - 1.0;
}

// o.steps of mean-curvature flow once per --precision on the list `build` fills; `describe`
// adds the case's fields to a run's line, and a fixed16 run is compared with the float32 one
// when that ran first.
template <class Build, class Describe>
void run_precisions(const Options& o, Build&& build, Describe&& describe) {
  std::optional<McfRun> float32;
  for (const sim::levelset::TilePrecision precision : o.precisions) {
    sim::levelset::SortedTileList list(1.5f, 64, precision);
    build(list);
    McfRun run = run_mcf(std::move(list), o);
    describe(run);
    if (float32 && precision != sim::levelset::TilePrecision::kFloat32) compare_with_float32(run, *float32);
    emit(run.line, o);
    if (precision == sim::levelset::TilePrecision::kFloat32) float32 = std::move(run);
  }
}

// α = 1 mean-curvature flow on Lucy: both sides scan-convert the same triangles at the same voxel
// size (OpenVDB with its own meshToLevelSet), then step.
void run_lucy_case(const Options& o) {
  const sim::TriangleMesh mesh = sim::read_mesh(o.lucy);
  const sim::levelset::VoxelFrame frame = sim::levelset::fit_frame(mesh, o.lucy_resolution, 4, o.lucy);

  double vdb_ms = 0;
  if (const auto vdb = openvdb_mesh_mean_curvature(mesh.vertices, mesh.triangles, frame.voxel_size, o.steps)) {
    vdb_ms = vdb->ms_per_step;
    McfLine line{.impl = openvdb_version(), .resolution = o.lucy_resolution, .ms_per_step = vdb->ms_per_step,
                 .tiles = vdb->leaf_nodes, .voxels = vdb->active_voxels, .bytes = vdb->memory_bytes};
    emit(line, o);
  }
  run_precisions(
      o, [&](sim::levelset::SortedTileList& list) { sim::levelset::build_from_mesh(list, mesh, frame, o.lucy); },
      [&](McfRun& run) {
        run.line.resolution = o.lucy_resolution;
        run.line.reference_ms = vdb_ms;
      });
}

void run_sphere_case(float radius, const Options& o) {
  const float extent = 2 * radius + 24;
  const glm::vec3 centre(extent / 2 + 0.37f, extent / 2 - 0.29f, extent / 2 + 0.13f);

  double vdb_ms = 0;
  if (const auto vdb = openvdb_mean_curvature(radius, centre, o.steps)) {
    vdb_ms = vdb->ms_per_step;
    McfLine line{.impl = openvdb_version(), .radius = radius, .ms_per_step = vdb->ms_per_step, .tiles = vdb->leaf_nodes,
                 .voxels = vdb->active_voxels, .bytes = vdb->memory_bytes, .radius_error = vdb->radius_error};
    emit(line, o);
  }
  const double dt = sim::levelset::CurvatureFlow(1.0f).max_time_step();
  const double expected = std::sqrt(double(radius) * radius - 4.0 * o.steps * dt);
  run_precisions(
      o,
      [&](sim::levelset::SortedTileList& list) {
        build_from_sdf(list, [&](glm::vec3 p) { return glm::length(p - centre) - radius; }, {0, 0, 0},
                       glm::ivec3(int(extent)));
      },
      [&](McfRun& run) {
        run.line.radius = radius;
        run.line.reference_ms = vdb_ms;
        run.line.radius_error = std::abs(mean_crossing_distance(run.list, centre) - expected);
      });
}

}  // namespace
}  // namespace levelset_bench

int run_levelset(int argc, char** argv) {
  using namespace levelset_bench;  // this file's helpers
  const Options o = parse(argc, argv);
  const auto environment = benchmark_environment(o.threads);
  for (const int n : o.enright) {
    const std::optional<EnrightPeerResult> peer = run_enright_peer(n, o);
    for (const sim::levelset::TilePrecision precision : o.precisions) run_enright_case(n, precision, peer, o);
  }
  // --enright alone runs only the Enright test; with --radii as well, both.
  if (!o.enright.empty() && !o.radii_given) return 0;
  for (const float radius : o.radii) run_sphere_case(radius, o);
  run_levelset_cuda(o.radii, o.steps, o.precisions);
  if (o.lucy_resolution > 0) run_lucy_case(o);
  return 0;
}

}  // namespace meniscus::bench
