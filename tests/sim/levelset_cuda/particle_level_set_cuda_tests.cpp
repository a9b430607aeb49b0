// The particle level set on the GPU-STL (sim/levelset/particle_level_set_gpu.h) against the CPU
// builder: the same particles, the same parameters, and after every build the same list entry
// by entry — keys, ids, free stack, capacity, every slot's flags — the same statistics, and
// the same values bit for bit (both backends evaluate particle_level_set_math.h in the same
// order without fused multiply-adds; the count of unequal values is printed, and must be 0).
// Exits with MENISCUS_SKIP_CODE (ctest: skipped) and says why when no CUDA device answers;
// without the CUDA backend (MENISCUS_HAS_CUDA off) it cannot place particles in device memory,
// and only says so.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/levelset/particle_level_set.h"
#include "sim/levelset/particle_level_set_gpu.h"
#include "tests/sim/levelset/levelset_test_helpers.h"
#include "tests/sim/levelset_particles/particle_sets.h"
#include "tests/support/device_checks.h"

#if MENISCUS_HAS_CUDA
#include <cuda_runtime.h>
#endif

namespace meniscus::sim::levelset {
namespace {

#if MENISCUS_HAS_CUDA
using device_test::check;

constexpr float kRadius = 0.005f;

// Device memory holding a copy of host particles, as the SPH stage's published buffer.
class DeviceParticles {
 public:
  explicit DeviceParticles(const std::vector<Particle>& particles) : count_(uint32_t(particles.size())) {
    if (cudaMalloc(&data_, sizeof(Particle) * std::max<size_t>(particles.size(), 1)) != cudaSuccess)
      throw std::runtime_error("cudaMalloc for the particles failed");
    if (!particles.empty() &&
        cudaMemcpy(data_, particles.data(), sizeof(Particle) * particles.size(), cudaMemcpyHostToDevice) != cudaSuccess)
      throw std::runtime_error("cudaMemcpy of the particles failed");
  }
  ~DeviceParticles() { cudaFree(data_); }
  DeviceParticles(const DeviceParticles&) = delete;
  DeviceParticles& operator=(const DeviceParticles&) = delete;
  const Particle* get() const { return data_; }
  uint32_t count() const { return count_; }

 private:
  Particle* data_ = nullptr;
  uint32_t count_;
};

std::string stats_text(const ParticleLevelSetStats& s) {
  return std::to_string(s.particles) + " particles, " + std::to_string(s.dropped) + " dropped, " +
         std::to_string(s.marked_tiles) + " marked, +" + std::to_string(s.management.added) + " -" +
         std::to_string(s.management.removed) + " =" + std::to_string(s.management.kept);
}

bool same_stats(const ParticleLevelSetStats& a, const ParticleLevelSetStats& b) {
  return a.particles == b.particles && a.dropped == b.dropped && a.marked_tiles == b.marked_tiles &&
         a.management.added == b.management.added && a.management.removed == b.management.removed &&
         a.management.kept == b.management.kept && a.management.grown == b.management.grown;
}

// Empty when the lists agree entirely; else the first difference. `unequal`: active values not
// bit-equal (each one is a difference).
std::string differences(const SortedTileList& cpu, const SortedTileList& gpu, size_t& unequal, float& worst) {
  unequal = 0;
  worst = 0;
  if (cpu.gamma() != gpu.gamma()) return "gamma " + std::to_string(cpu.gamma()) + " vs " + std::to_string(gpu.gamma());
  if (cpu.capacity() != gpu.capacity())
    return "capacity " + std::to_string(cpu.capacity()) + " vs " + std::to_string(gpu.capacity());
  if (cpu.size() != gpu.size()) return "active tiles " + std::to_string(cpu.size()) + " vs " + std::to_string(gpu.size());
  for (size_t i = 0; i < cpu.size(); ++i) {
    const TileEntry a = cpu.active()[i], b = gpu.active()[i];
    if (a.key != b.key || a.id != b.id) return "entry " + std::to_string(i) + " differs";
  }
  if (cpu.free_stack() != gpu.free_stack()) return "free stacks differ";
  for (uint32_t id = 0; id < cpu.capacity(); ++id)
    if (cpu.activity(id) != gpu.activity(id) || cpu.border(id) != gpu.border(id))
      return "flags of slot " + std::to_string(id) + " differ";
  std::string first;
  for (const TileEntry& e : cpu.active())
    for (int v = 0; v < kTileVoxels; ++v) {
      const float a = cpu.value(e.id, v), b = gpu.value(e.id, v);
      if (std::memcmp(&a, &b, sizeof a) == 0) continue;
      ++unequal;
      worst = std::max(worst, std::abs(a - b));
      if (first.empty())
        first = "tile " + std::to_string(e.key) + " voxel " + std::to_string(v) + ": " + std::to_string(a) + " vs " +
                std::to_string(b);
    }
  return first;
}

// Builds from the same particles on both backends (into lists that already hold the previous
// frame's) and compares.
ParticleLevelSetStats compare(const std::string& name, ParticleLevelSetBuilder& cpu_builder,
                              GpuParticleLevelSetBuilder& gpu_builder, SortedTileList& cpu, GpuSortedTileList& gpu,
                              const std::vector<Particle>& particles) {
  const DeviceParticles device(particles);
  const ParticleLevelSetStats a = cpu_builder.build(cpu, particles);
  const ParticleLevelSetStats b = gpu_builder.build(gpu, device.get(), device.count());
  const SortedTileList back = gpu.download();
  size_t unequal = 0;
  float worst = 0;
  const std::string diff = differences(cpu, back, unequal, worst);
  check(same_stats(a, b), name + ": statistics CPU " + stats_text(a) + ", GPU " + stats_text(b));
  check(diff.empty() && unequal == 0, name + ": the same list (" + std::to_string(cpu.size()) + " tiles, capacity " +
                                          std::to_string(cpu.capacity()) + "), " + std::to_string(unequal) +
                                          " values not bit-equal (largest difference " + std::to_string(worst) + ") " + diff);
  const std::string problems = testing::list_problems(back);
  check(problems.empty(), name + ": the GPU list's invariants and band closure " + problems);
  return a;
}

ParticleLevelSetParams params_for(glm::vec3 lo, glm::vec3 hi, float kernel_radius, int smoothing_steps) {
  ParticleLevelSetParams p;
  p.voxel_size = kRadius;
  p.particle_radius = kRadius;
  p.kernel_radius = kernel_radius;
  p.smoothing_steps = smoothing_steps;
  fit_particle_grid(p, lo, hi);
  return p;
}

void frames(const std::string& name, float kernel_radius, int smoothing_steps,
            TilePrecision precision = TilePrecision::kFloat32) {
  const glm::vec3 lo(0.0f), hi(0.16f, 0.12f, 0.12f);
  const ParticleLevelSetParams params = params_for(lo, hi, kernel_radius, smoothing_steps);
  ParticleLevelSetBuilder cpu_builder(params);
  GpuParticleLevelSetBuilder gpu_builder(params);
  SortedTileList cpu(1.0f, 64, precision);
  GpuSortedTileList gpu(SortedTileList(1.0f, 64, precision));

  // A jittered ball with spray around it, and two particles beyond the grid.
  std::vector<Particle> ball = testing::lattice_ball(glm::vec3(0.071f, 0.058f, 0.063f), 0.055f, kRadius);
  testing::jitter_and_spray(ball, 0.3f * kRadius, 40, lo, hi);
  ball.push_back(testing::particle_at(glm::vec3(1.0f, 0.05f, 0.05f)));
  ball.push_back(testing::particle_at(glm::vec3(0.05f, -1.0f, 0.05f)));
  compare(name + ", jittered ball with spray", cpu_builder, gpu_builder, cpu, gpu, ball);

  // The next frame: a block that overlaps where the ball was, so tiles are kept, freed and made.
  std::vector<Particle> block = testing::lattice_box(glm::vec3(0.03f, 0.01f, 0.02f), glm::ivec3(10, 6, 8), kRadius);
  testing::jitter_and_spray(block, 0.2f * kRadius, 20, lo, hi, 11);
  compare(name + ", then a jittered block", cpu_builder, gpu_builder, cpu, gpu, block);

  // Drops against the grid's far corner (some beyond it): the band reaches past the grid, where
  // manage() makes the closure tiles that the builders then set outside.
  const glm::vec3 corner = params.origin + glm::vec3(params.voxels) * params.voxel_size;
  const std::vector<Particle> edge = testing::lattice_ball(corner - 2.0f * kRadius, 4.0f * kRadius, kRadius);
  const ParticleLevelSetStats at_edge =
      compare(name + ", then drops at the grid's far corner", cpu_builder, gpu_builder, cpu, gpu, edge);
  check(at_edge.management.added > 0,
        name + ": the corner's band made " + std::to_string(at_edge.management.added) + " tiles past the grid");

  compare(name + ", then no particles", cpu_builder, gpu_builder, cpu, gpu, {});
}

#endif  // MENISCUS_HAS_CUDA

int run() {
  std::string why;
  if (!gpu_stl_available(&why)) {
    std::printf("SKIPPED: %s\n", why.c_str());
    return MENISCUS_SKIP_CODE;
  }
#if MENISCUS_HAS_CUDA
  frames("R 2 spacings", 2.0f, 0);
  frames("R 1.5 spacings, 2 smoothing steps", 1.5f, 2);
  frames("16-bit tiles, R 1.5 spacings, 2 smoothing steps", 1.5f, 2, TilePrecision::kFixed16);
  return device_test::summary();
#else
  return MENISCUS_SKIP_CODE;  // no backend, so no device answered above
#endif
}

}  // namespace
}  // namespace meniscus::sim::levelset

int main() { return meniscus::device_test::run_main(meniscus::sim::levelset::run); }
