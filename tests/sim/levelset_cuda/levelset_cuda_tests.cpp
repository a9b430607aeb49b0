// The CUDA sparse level sets (GPU-STL) against the CPU sorted tile list on a real NVIDIA device.
// Both start from the same list and take the same steps; after every step they must hold the
// same list entry by entry — keys, ids, free stack, capacity, flags, the 16-byte status, dt —
// and values within kTolerance, and the GPU's list must pass the CPU's invariants.
// Exits with MENISCUS_SKIP_CODE (ctest: skipped) and says why when no CUDA device answers.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>

#include "engine/core/error.h"
#include "sim/levelset/evolution.h"
#include "sim/levelset/gpu_stl_evolution.h"
#include "sim/levelset/gpu_stl_list.h"
#include "tests/sim/levelset/levelset_test_helpers.h"
#include "tests/support/device_checks.h"

namespace meniscus::sim::levelset {
namespace {

// Both backends round every operation alike (the kernels are built without fused multiply-adds)
// except the Enright field's double sin/cos, whose last-ulp differences between CUDA and libm
// reach the float velocity only rarely: values must agree to 1e-5 voxel (γ = 1.5), and most
// agree to the bit (the count of unequal ones is printed).
constexpr float kTolerance = 1e-5f;

using device_test::check;

bool same_status(const TileStatus& a, const TileStatus& b) {
  return a.added == b.added && a.removed == b.removed && a.kept == b.kept && a.grown == b.grown;
}

std::string status_text(const TileStatus& s) {
  return "+" + std::to_string(s.added) + " -" + std::to_string(s.removed) + " =" + std::to_string(s.kept) + " grown " +
         std::to_string(s.grown);
}

// Empty when the lists agree (structure exactly, active values within kTolerance); else what
// differs first. `pool_exact`: every pool slot's values must be identical too (before any step).
std::string differences(const SortedTileList& cpu, const SortedTileList& gpu, bool pool_exact, size_t* unequal = nullptr,
                        float* worst = nullptr) {
  if (cpu.capacity() != gpu.capacity())
    return "capacity " + std::to_string(cpu.capacity()) + " vs " + std::to_string(gpu.capacity());
  if (cpu.size() != gpu.size()) return "active tiles " + std::to_string(cpu.size()) + " vs " + std::to_string(gpu.size());
  for (size_t i = 0; i < cpu.size(); ++i) {
    const TileEntry a = cpu.active()[i], b = gpu.active()[i];
    if (a.key != b.key || a.id != b.id)
      return "entry " + std::to_string(i) + ": (" + std::to_string(a.key) + ", " + std::to_string(a.id) + ") vs (" +
             std::to_string(b.key) + ", " + std::to_string(b.id) + ")";
  }
  if (cpu.free_stack() != gpu.free_stack()) return "free stacks differ";
  size_t count = 0;
  float largest = 0;
  for (uint32_t id = 0; id < cpu.capacity(); ++id) {
    if (cpu.activity(id) != gpu.activity(id) || cpu.border(id) != gpu.border(id))
      return "flags of slot " + std::to_string(id) + " differ";
  }
  for (const TileEntry& e : cpu.active())
    for (int v = 0; v < kTileVoxels; ++v) {
      const float a = cpu.value(e.id, v), b = gpu.value(e.id, v);
      if (a == b) continue;
      ++count;
      largest = std::max(largest, std::abs(a - b));
      if (!(std::abs(a - b) <= kTolerance))
        return "tile " + std::to_string(e.key) + " voxel " + std::to_string(v) + ": " + std::to_string(a) + " vs " +
               std::to_string(b);
    }
  if (pool_exact)
    for (uint32_t id = 0; id < cpu.capacity(); ++id)
      for (int v = 0; v < kTileVoxels; ++v)
        if (cpu.value(id, v) != gpu.value(id, v)) return "pool slot " + std::to_string(id) + " differs";
  if (unequal) *unequal = count;
  if (worst) *worst = largest;
  return {};
}

SortedTileList sphere_list(glm::vec3 centre, float radius, int domain,
                           TilePrecision precision = TilePrecision::kFloat32, float gamma = 1.5f) {
  SortedTileList list(gamma, 64, precision);
  build_from_sdf(list, testing::sphere(centre, radius), glm::ivec3(0), glm::ivec3(domain));
  return list;
}

void round_trip(TilePrecision precision) {
  const SortedTileList cpu = sphere_list({16.3f, 15.8f, 16.1f}, 9.0f, 32, precision);
  GpuSortedTileList gpu(cpu);
  const SortedTileList back = gpu.download();
  const std::string diff = differences(cpu, back, true);
  check(diff.empty() && back.precision() == precision,
        std::string(precision_name(precision)) + " upload/download round trip of " + std::to_string(cpu.size()) +
            " tiles is exact " + diff);
}

// Tile management alone: the surface jumps (re-sampled from a larger, then a smaller sphere), so
// tiles are created (beyond the free stack: growth), removed and kept.
void management(TilePrecision precision) {
  SortedTileList cpu = sphere_list({16.3f, 15.8f, 16.1f}, 7.0f, 40, precision);
  bool grew = false, removed = false;
  int pass = 0;
  for (const float radius : {11.0f, 11.0f, 11.0f, 5.0f, 5.0f, 5.0f}) {
    ++pass;
    resample(cpu, testing::sphere({16.3f, 15.8f, 16.1f}, radius));
    GpuSortedTileList gpu(cpu);  // the re-sampled values, then both manage
    const TileStatus a = cpu.manage(), b = gpu.manage();
    grew = grew || a.grown > 0;
    removed = removed || a.removed > 0;
    const SortedTileList back = gpu.download();
    const std::string diff = differences(cpu, back, false);
    check(same_status(a, b) && diff.empty(),
          std::string(precision_name(precision)) + " manage() pass " + std::to_string(pass) + " (r " +
              std::to_string(int(radius)) + "): CPU " + status_text(a) +
              ", GPU " + status_text(b) + " " + diff);
    const std::string problems = back.check_invariants();
    check(problems.empty(), "manage() pass " + std::to_string(pass) + ": GPU list invariants " + problems);
  }
  check(grew && removed, "the management passes grew the pool and removed tiles");
}

// Steps both backends from the same list and compares after every step.
void evolve(const std::string& name, SortedTileList cpu, const GpuEvolutionParams& params, int steps, float max_dt) {
  GpuSortedTileList gpu(cpu);
  LevelSetEvolution cpu_evolution(to_cpu_params(params));
  GpuLevelSetEvolution gpu_evolution(params);
  double t = 0;
  size_t unequal_total = 0;
  float worst = 0;
  bool ok = true;
  for (int step = 1; step <= steps && ok; ++step) {
    const float dt_cpu = cpu_evolution.step(cpu, float(t), max_dt);
    const float dt_gpu = gpu_evolution.step(gpu, float(t), max_dt);
    t += dt_cpu;
    const SortedTileList back = gpu.download();
    size_t unequal = 0;
    float largest = 0;
    const std::string diff = differences(cpu, back, false, &unequal, &largest);
    const std::string problems = testing::list_problems(back);
    const bool same = dt_cpu == dt_gpu && same_status(cpu_evolution.last_status(), gpu_evolution.last_status()) && diff.empty();
    if (!same || !problems.empty()) {
      check(false, name + " step " + std::to_string(step) + ": dt " + std::to_string(dt_cpu) + " vs " + std::to_string(dt_gpu) +
                       ", status CPU " + status_text(cpu_evolution.last_status()) + " GPU " +
                       status_text(gpu_evolution.last_status()) + " " + diff + " invariants: " + problems);
      ok = false;
    }
    unequal_total += unequal;
    worst = std::max(worst, largest);
  }
  if (ok)
    check(true, name + ": " + std::to_string(steps) + " steps, the same lists, dt and status after each, " +
                    std::to_string(cpu.size()) + " tiles at the end; " + std::to_string(unequal_total) +
                    " active values not bit-equal (largest difference " + std::to_string(worst) + ")");
}

// A frame's steps are queued and never waited for. The sphere grows (F > 0), so its pool
// outgrows the allocation the upload gave it: the management that needs more freezes the
// list, the steps queued behind it leave it as it is, and poll() (a frame later) grows the
// allocation and runs the frozen management again. In the end the list is the CPU's after as
// many steps as the device took, and its clock the CPU's sum of their dt.
void queued_steps(const GpuEvolutionParams& params) {
  // The first frame grows the pool beyond the allocation's growth factor; the others take few
  // steps, so the headroom covers them and they show what a steady frame waits for: nothing.
  constexpr int kFrames = 5;
  const auto steps_in = [](int frame) { return frame == 0 ? 80 : 2; };
  SortedTileList cpu = sphere_list({16.3f, 15.8f, 16.1f}, 3.0f, 32);
  GpuSortedTileList gpu(cpu);
  GpuLevelSetEvolution gpu_evolution(params);
  bool froze = false;
  int steady_frames = 0, steady_waits = 0;
  for (int frame = 0; frame < kFrames; ++frame) {
    const uint32_t allocated = gpu.allocated();
    const auto waits_before = device_test::cuda_host_waits();
    froze |= gpu.poll().frozen != GpuStlFrozen::kNo;
    for (int k = 0; k < steps_in(frame); ++k) gpu_evolution.queue_step(gpu);
    gpu.publish();
    if (waits_before && gpu.allocated() == allocated) {
      ++steady_frames;
      steady_waits += int(*device_test::cuda_host_waits() - *waits_before);
    }
    gpu.synchronize();  // a device that keeps up: the next poll sees this frame's counters
  }
  const GpuStlCounters c = gpu.counters();
  std::printf("queued steps: %zu tiles, capacity %u at the start; %u tiles, capacity %u, allocation %u at the end\n",
              cpu.size(), cpu.capacity(), c.size, c.capacity, gpu.allocated());
  check(froze, "a queued management outgrew the allocation and froze the list, seen by poll()");
  if (device_test::cuda_host_waits())
    check(steady_frames > 0 && steady_waits == 0,
          std::to_string(steady_frames) + " frames that did not grow the allocation queued their steps and waited for "
              "the device " + std::to_string(steady_waits) + " times");
  int queued = 0;
  for (int frame = 0; frame < kFrames; ++frame) queued += steps_in(frame);
  check(c.steps > 0 && int(c.steps) < queued, "the steps queued behind the freeze were not taken (" +
                                                  std::to_string(c.steps) + " of " + std::to_string(queued) + " taken)");

  LevelSetEvolution cpu_evolution(to_cpu_params(params));
  double t = 0;
  for (uint32_t step = 0; step < c.steps; ++step) t += cpu_evolution.step(cpu, float(t));
  const std::string diff = differences(cpu, gpu.download(), false);
  check(diff.empty() && c.time == t && same_status(c.status, cpu_evolution.last_status()),
        "after " + std::to_string(c.steps) + " queued steps the list, the clock and the last status are the CPU's " + diff);
  check(testing::list_problems(gpu.download()).empty(), "the queued list keeps the list invariants");
}

void out_of_memory() {
  const SortedTileList cpu = sphere_list({16.3f, 15.8f, 16.1f}, 9.0f, 32);
  GpuSortedTileList gpu(cpu);
  std::string message;
  try {
    gpu.reserve(0xF0000000ull);  // 4 G tiles: a terabyte of tile pool
  } catch (const DeviceMemoryError& e) {
    message = e.what();
  }
  std::printf("out of memory: %s\n", message.c_str());
  check(message.find("tiles") != std::string::npos && message.find("bytes") != std::string::npos,
        "an impossible pool is a DeviceMemoryError naming tiles and bytes");
  const std::string diff = differences(cpu, gpu.download(), true);
  check(diff.empty(), "the list is unchanged after the failed growth " + diff);
}

int run() {
  std::string why;
  if (!gpu_stl_available(&why)) {
    std::printf("SKIPPED: %s\n", why.c_str());
    return MENISCUS_SKIP_CODE;
  }
  for (const TilePrecision precision : {TilePrecision::kFloat32, TilePrecision::kFixed16}) {
    round_trip(precision);
    management(precision);
  }

  GpuEvolutionParams mcf;  // sphere shrinking by curvature against an outward normal speed
  mcf.scheme = Scheme::kUpwind;
  mcf.alpha = 1.0f;
  mcf.normal_speed = 0.1f;
  mcf.rescaling_speed = true;
  evolve("sphere MCF (F 0.1, alpha 1, upwind/Euler, rescaling)", sphere_list({16.3f, 15.8f, 16.1f}, 10.0f, 32), mcf, 24,
         std::numeric_limits<float>::infinity());
  // Large enough (about 10k tiles, against at most 4224 compute units) that each unit walks two
  // or three tiles with its neighbour pointers and management units span more than one tile.
  evolve("sphere MCF r 70 (upwind/Euler, several tiles per unit)", sphere_list({80.37f, 79.71f, 80.13f}, 70.0f, 160),
         mcf, 2, std::numeric_limits<float>::infinity());
  mcf.scheme = Scheme::kWeno5;
  evolve("sphere MCF (F 0.1, alpha 1, WENO5/RK3, rescaling)", sphere_list({16.3f, 15.8f, 16.1f}, 10.0f, 32), mcf, 10,
         std::numeric_limits<float>::infinity());
  // 16-bit tiles: both backends round each stage's values to the same codes.
  evolve("fixed16 sphere MCF (F 0.1, alpha 1, WENO5/RK3, rescaling)",
         sphere_list({16.3f, 15.8f, 16.1f}, 10.0f, 32, TilePrecision::kFixed16), mcf, 10,
         std::numeric_limits<float>::infinity());

  GpuEvolutionParams enright;  // Enright's sphere in LeVeque's field, 32^3 (enright.cpp's set-up)
  enright.scheme = Scheme::kWeno5;
  enright.velocity.kind = FieldVelocity::Kind::kEnright;
  enright.velocity.resolution = 32;
  enright.velocity.period = 3.0f;
  const float n = 32;
  evolve("Enright 32^3 (WENO5/RK3)", sphere_list(glm::vec3(0.35f * n - 0.5f), 0.15f * n, 32), enright, 12, 3.0f);
  evolve("fixed16 Enright 32^3 (WENO5/RK3)",
         sphere_list(glm::vec3(0.35f * n - 0.5f), 0.15f * n, 32, TilePrecision::kFixed16), enright, 12, 3.0f);
  // The benchmark's Enright set-up: γ 3, the reinitialisation PDE after every 2nd step here
  // (so steps with and without it alternate), CFL 0.9.
  GpuEvolutionParams reinitialised = enright;
  reinitialised.cfl = 0.9f;
  reinitialised.reinit = {1, Scheme::kWeno5, 0.5f, 2};
  evolve("Enright 32^3, gamma 3, reinitialised every 2nd step",
         sphere_list(glm::vec3(0.35f * n - 0.5f), 0.15f * n, 32, TilePrecision::kFloat32, 3.0f), reinitialised, 8, 3.0f);
  reinitialised.scheme = reinitialised.reinit.scheme = Scheme::kUpwind;
  reinitialised.reinit.iterations = 3;
  evolve("Enright 32^3, upwind, 3 reinitialisation iterations every 2nd step",
         sphere_list(glm::vec3(0.35f * n - 0.5f), 0.15f * n, 32, TilePrecision::kFloat32, 3.0f), reinitialised, 8, 3.0f);

  GpuEvolutionParams grow;  // a sphere growing outwards, its pool with it
  grow.scheme = Scheme::kUpwind;
  grow.normal_speed = 1.0f;
  grow.rescaling_speed = true;
  queued_steps(grow);

  out_of_memory();
  return device_test::summary();
}

}  // namespace
}  // namespace meniscus::sim::levelset

int main() { return meniscus::device_test::run_main(meniscus::sim::levelset::run); }
