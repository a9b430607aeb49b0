// meniscus-bench levelset: mean-curvature flow on spheres, our sorted tile list against
// OpenVDB's LevelSetFilter::meanCurvature in the same run on the same threads: ms per step,
// active tiles and voxels, voxel updates per second, memory, and the radius error after N steps
// against the analytic r(t) of each implementation's own curvature convention.
// Then the same on Lucy (scenes/data/vtk-data/lucy.ply, --lucy-resolution voxels along her
// height), each side scan-converting the mesh itself at the same voxel size.
// --enright 128,256: the Enright test (WENO5/RK3, one period) at those resolutions: volume
// loss, area, centroid shift, time.
#include <tbb/global_control.h>
#include <tbb/info.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "engine/core/error.h"
#include "engine/profile/json_writer.h"
#include "sim/common/mesh_reader.h"
#include "sim/levelset/curvature_flow.h"
#include "sim/levelset/enright.h"
#include "sim/levelset/level_set_builder.h"
#include "sim/levelset/mesh_level_set.h"
#include "tools/bench/bench_setup.h"
#include "tools/bench/levelset_cuda_bench.h"
#include "tools/bench/peers.h"

namespace meniscus::bench {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

struct Options {
  int threads = int(tbb::info::default_concurrency());
  std::vector<float> radii{100.0f, 200.0f, 400.0f};
  std::string lucy = "scenes/data/vtk-data/lucy.ply";
  int lucy_resolution = 512;  // 0: no Lucy case
  int steps = 10;
  bool radii_given = false;
  std::vector<int> enright;  // resolutions
  float enright_gamma = 1.5f;
  int enright_reinit = 0;
};

Options parse(int argc, char** argv) {
  Options o;
  for (BenchFlags flags(argc, argv); flags.next();) {
    const std::string flag = flags.flag();
    if (flag == "--threads") o.threads = std::max(1, std::atoi(flags.value().c_str()));
    else if (flag == "--steps") o.steps = std::max(1, std::atoi(flags.value().c_str()));
    else if (flag == "--radii") {
      o.radii.clear();
      o.radii_given = true;
      for (const std::string& item : split_list(flags.value())) {
        const float r = std::strtof(item.c_str(), nullptr);
        if (!(r >= 4.0f && r <= 1000.0f)) throw InputError("--radii: each radius must be in [4, 1000], got '" + item + "'");
        o.radii.push_back(r);
      }
    } else if (flag == "--lucy") {
      o.lucy = flags.value();
    } else if (flag == "--lucy-resolution") {
      const std::string v = flags.value();
      o.lucy_resolution = std::atoi(v.c_str());
      if (o.lucy_resolution != 0 && (o.lucy_resolution < 32 || o.lucy_resolution > 4096))
        throw InputError("--lucy-resolution: must be 0 (no Lucy case) or in [32, 4096], got '" + v + "'");
    } else if (flag == "--enright") {
      for (const std::string& item : split_list(flags.value())) {
        const int n = std::atoi(item.c_str());
        if (n < 16 || n > 2048) throw InputError("--enright: each resolution must be in [16, 2048], got '" + item + "'");
        o.enright.push_back(n);
      }
    } else if (flag == "--enright-gamma") {
      const std::string v = flags.value();
      o.enright_gamma = std::strtof(v.c_str(), nullptr);
      if (!(o.enright_gamma >= 1.0f && o.enright_gamma <= 8.0f))
        throw InputError("--enright-gamma: must be in [1, 8] voxels, got '" + v + "'");
    } else if (flag == "--enright-reinit") {
      const std::string v = flags.value();
      o.enright_reinit = std::atoi(v.c_str());
      if (o.enright_reinit < 0 || o.enright_reinit > 20) throw InputError("--enright-reinit: must be in [0, 20], got '" + v + "'");
    } else throw InputError("levelset: unknown flag '" + flag + "'");
  }
  return o;
}

// One mean-curvature-flow line: a sphere of `radius` voxels (with its radius error), or Lucy
// (radius 0: `resolution` voxels along her height, no analytic answer).
void emit(const char* impl, float radius, int resolution, const Options& o, double ms_per_step, uint64_t tiles,
          uint64_t voxels, uint64_t bytes, double radius_error, double reference_ms) {
  profile::JsonWriter json;
  json.begin_object();
  json.key("bench").value("levelset");
  json.key("case").value(radius > 0 ? "sphere_mcf" : "lucy_mcf");
  if (radius > 0) json.key("radius_voxels").value(double(radius));
  else json.key("resolution").value(uint64_t(resolution));
  json.key("impl").value(impl);
  json.key("threads").value(uint64_t(o.threads));
  json.key("steps").value(uint64_t(o.steps));
  json.key("ms_per_step").value(ms_per_step);
  json.key("active_tiles").value(tiles);
  json.key("active_voxels").value(voxels);
  json.key("voxel_updates_per_s").value(double(voxels) / (ms_per_step / 1e3));
  json.key("memory_bytes").value(bytes);
  if (radius > 0) json.key("radius_error_voxels").value(radius_error);
  if (reference_ms > 0) json.key("speedup_vs_openvdb").value(reference_ms / ms_per_step);
  json.end_object();
  print_line(json);
}

void run_enright_case(int resolution, const Options& o) {
  sim::levelset::EnrightSetup setup;
  setup.resolution = resolution;
  setup.gamma = o.enright_gamma;
  setup.reinit_iterations = o.enright_reinit;
  const sim::levelset::EnrightResult r = run_enright(setup);
  profile::JsonWriter json;
  json.begin_object();
  json.key("bench").value("levelset");
  json.key("case").value("enright");
  json.key("resolution").value(uint64_t(resolution));
  json.key("impl").value("meniscus-cpu-stl");
  json.key("scheme").value("weno5-rk3");
  json.key("gamma_voxels").value(double(setup.gamma));
  json.key("reinit_iterations").value(uint64_t(setup.reinit_iterations));
  json.key("threads").value(uint64_t(o.threads));
  json.key("period").value(double(setup.period));
  json.key("steps").value(uint64_t(r.steps));
  json.key("seconds").value(r.seconds);
  json.key("ms_per_step").value(r.seconds * 1e3 / std::max<uint32_t>(r.steps, 1));
  json.key("max_active_tiles").value(uint64_t(r.max_tiles));
  json.key("initial_volume_voxels").value(r.initial_volume);
  json.key("final_volume_voxels").value(r.final_volume);
  json.key("volume_loss").value(r.volume_loss);
  json.key("initial_area_voxels2").value(r.initial_area);
  json.key("final_area_voxels2").value(r.final_area);
  json.key("max_area_voxels2").value(r.max_area);
  json.key("centroid_shift_voxels").value(r.centroid_shift);
  json.key("centroid_shift_domain").value(r.centroid_shift / resolution);
  json.end_object();
  print_line(json);
}

uint64_t stl_memory_bytes(const sim::levelset::SortedTileList& list) {
  return uint64_t(list.capacity()) * (sim::levelset::kTileVoxels * 4 + 8) + list.size() * 8;
}

// α = 1 mean-curvature flow on Lucy: both sides scan-convert the same triangles at the same voxel
// size (OpenVDB with its own meshToLevelSet), then step.
void run_lucy_case(const Options& o) {
  const sim::TriangleMesh mesh = sim::read_mesh(o.lucy);
  const sim::levelset::VoxelFrame frame = sim::levelset::fit_frame(mesh, o.lucy_resolution, 4, o.lucy);

  double vdb_ms = 0;
  if (const auto vdb = openvdb_mesh_mean_curvature(mesh.vertices, mesh.triangles, frame.voxel_size, o.steps)) {
    vdb_ms = vdb->ms_per_step;
    emit(openvdb_version(), 0, o.lucy_resolution, o, vdb->ms_per_step, vdb->leaf_nodes, vdb->active_voxels,
         vdb->memory_bytes, 0, 0);
  }
  sim::levelset::SortedTileList list(1.5f);
  sim::levelset::build_from_mesh(list, mesh, frame, o.lucy);
  sim::levelset::CurvatureFlow flow(1.0f);
  const auto start = Clock::now();
  for (int s = 0; s < o.steps; ++s) {
    flow.step(list, flow.max_time_step());
    list.manage();
  }
  emit("meniscus-cpu-stl", 0, o.lucy_resolution, o, ms_since(start) / o.steps, list.size(),
       list.size() * sim::levelset::kTileVoxels, stl_memory_bytes(list), 0, vdb_ms);
}

}  // namespace

int run_levelset(int argc, char** argv) {
  const Options o = parse(argc, argv);
  const auto environment = benchmark_environment(o.threads);
  for (const int n : o.enright) run_enright_case(n, o);
  // --enright alone runs only the Enright test; with --radii as well, both.
  if (!o.enright.empty() && !o.radii_given) return 0;
  for (const float radius : o.radii) {
    const float extent = 2 * radius + 24;
    const glm::vec3 centre(extent / 2 + 0.37f, extent / 2 - 0.29f, extent / 2 + 0.13f);

    double vdb_ms = 0;
    if (const auto vdb = openvdb_mean_curvature(radius, centre, o.steps)) {
      vdb_ms = vdb->ms_per_step;
      emit(openvdb_version(), radius, 0, o, vdb->ms_per_step, vdb->leaf_nodes, vdb->active_voxels, vdb->memory_bytes,
           vdb->radius_error, 0);
    }

    sim::levelset::SortedTileList list(1.5f);
    build_from_sdf(list, [&](glm::vec3 p) { return glm::length(p - centre) - radius; }, {0, 0, 0},
                   glm::ivec3(int(extent)));
    sim::levelset::CurvatureFlow flow(1.0f);
    const float dt = flow.max_time_step();
    const auto start = Clock::now();
    for (int s = 0; s < o.steps; ++s) {
      flow.step(list, dt);
      list.manage();
    }
    const double ms = ms_since(start) / o.steps;
    const double expected = std::sqrt(double(radius) * radius - 4.0 * o.steps * double(dt));
    emit("meniscus-cpu-stl", radius, 0, o, ms, list.size(), list.size() * sim::levelset::kTileVoxels,
         stl_memory_bytes(list),
         std::abs(mean_crossing_distance(list, centre) - expected), vdb_ms);
  }
  run_levelset_cuda(o.radii, o.steps);
  if (o.lucy_resolution > 0) run_lucy_case(o);
  return 0;
}

}  // namespace meniscus::bench
