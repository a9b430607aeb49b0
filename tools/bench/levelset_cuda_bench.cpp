// The GPU-STL timing: sphere mean-curvature flow (α = 1, first-order scheme, forward Euler at
// dt = 0.9 / 6, the CPU benchmark's CurvatureFlow step) on the CUDA sorted tile list, at the
// radii given to `meniscus-bench levelset`. Per step: the compute kernel and the five tile-
// management passes with their status read-back, timed on the wall clock after one warm-up
// step (allocations). Reports ms per step, active tiles, voxel updates per second and the
// radius error against r² = r0² − 4αt, on the named GPU.
#include "tools/bench/levelset_cuda_bench.h"

#include <chrono>
#include <cmath>
#include <string>

#include "engine/profile/json_writer.h"
#include "sim/levelset/gpu_stl_evolution.h"
#include "sim/levelset/level_set_builder.h"
#include "tools/bench/bench_setup.h"

namespace meniscus::bench {
namespace levelset_cuda_bench {
namespace {

constexpr const char* kImpl = "meniscus-cuda-gpu-stl";

void emit_skipped(const std::string& why) {
  profile::JsonWriter json;
  json.begin_object();
  json.key("bench").value("levelset");
  json.key("case").value("sphere_mcf");
  json.key("impl").value(kImpl);
  json.key("skipped").value(why);
  json.end_object();
  print_line(json);
}

void run_case(float radius, sim::levelset::TilePrecision precision, int steps,
              const sim::levelset::GpuEvolutionParams& params, const std::string& device) {
  // The CPU benchmark's sphere (levelset_bench.cpp), off the grid's symmetry.
  const float extent = 2 * radius + 24;
  const glm::vec3 centre(extent / 2 + 0.37f, extent / 2 - 0.29f, extent / 2 + 0.13f);
  sim::levelset::SortedTileList list(1.5f, 64, precision);
  build_from_sdf(list, [&](glm::vec3 p) { return glm::length(p - centre) - radius; }, {0, 0, 0}, glm::ivec3(int(extent)));

  sim::levelset::GpuSortedTileList gpu(list);
  sim::levelset::GpuLevelSetEvolution evolution(params);
  double t = evolution.step(gpu, 0.0f);  // warm-up: first allocations
  gpu.synchronize();
  double voxels = 0;
  const auto start = std::chrono::steady_clock::now();
  for (int s = 0; s < steps; ++s) {
    voxels += double(gpu.size()) * sim::levelset::kTileVoxels;
    t += evolution.step(gpu, float(t));
  }
  gpu.synchronize();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const sim::levelset::SortedTileList back = gpu.download();
  const double expected = std::sqrt(double(radius) * radius - 4.0 * params.alpha * t);

  profile::JsonWriter json;
  json.begin_object();
  json.key("bench").value("levelset");
  json.key("case").value("sphere_mcf");
  json.key("radius_voxels").value(double(radius));
  json.key("impl").value(kImpl);
  json.key("device").value(device);
  json.key("precision").value(sim::levelset::precision_name(precision));
  json.key("steps").value(uint64_t(steps));
  json.key("ms_per_step").value(1e3 * seconds / steps);
  json.key("active_tiles").value(uint64_t(back.size()));
  json.key("active_voxels").value(uint64_t(back.size()) * sim::levelset::kTileVoxels);
  json.key("voxel_updates_per_s").value(voxels / seconds);
  // The list's structure as the CPU counts it (the device holds the same arrays, and the
  // active list twice), plus the rate array.
  json.key("memory_bytes").value(uint64_t(back.bytes() + back.size() * (sizeof(sim::levelset::TileEntry) +
                                                                        sim::levelset::kTileVoxels * sizeof(float))));
  json.key("radius_error_voxels").value(std::abs(mean_crossing_distance(back, centre) - expected));
  json.end_object();
  print_line(json);
}

}  // namespace
}  // namespace levelset_cuda_bench

void run_levelset_cuda(const std::vector<float>& radii, int steps,
                       const std::vector<sim::levelset::TilePrecision>& precisions) {
  using namespace levelset_cuda_bench;  // this file's helpers
  std::string why;
  if (!sim::levelset::gpu_stl_available(&why)) {
    emit_skipped(why);
    return;
  }
  const std::string device = sim::levelset::gpu_stl_device_name();
  sim::levelset::GpuEvolutionParams params;
  params.scheme = sim::levelset::Scheme::kUpwind;
  params.alpha = 1.0f;
  params.cfl = 0.9f;  // dt = 0.9 / (6 α): CurvatureFlow::max_time_step()
  for (const float radius : radii)
    for (const sim::levelset::TilePrecision precision : precisions) run_case(radius, precision, steps, params, device);
}

}  // namespace meniscus::bench
