// The SPH stage's CUDA backend when the device runs out of memory (issue 18): a stage that
// cannot be made says so and leaks nothing; a running stage whose reset asks for more than the
// device has (a smaller particle radius: more particles) refuses with a clear error, puts its
// settings back and goes on as a stage that was never asked; once memory is there the
// same reset succeeds. The device's memory is capped: on the CPU execution layer by its
// allocation limit, on a GPU by a ballast allocation of what is free beyond the cap.
// Exits with MENISCUS_SKIP_CODE (ctest: skipped) and says why when no CUDA device answers.
#if MENISCUS_HAS_CUDA
#include "sim/common/cuda_support.cuh"
#endif

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "dam_break.h"
#include "engine/core/error.h"
#include "sim/sph/sph_cuda.h"
#include "tests/support/device_checks.h"

namespace meniscus {
namespace {

using device_test::check;

#if MENISCUS_HAS_CUDA
size_t free_device_bytes() {
  size_t free_bytes = 0, total_bytes = 0;
  cudaMemGetInfo(&free_bytes, &total_bytes);
  return free_bytes;
}

// Leaves `bytes` of the device free until destroyed.
class MemoryCap {
 public:
  explicit MemoryCap(size_t bytes) {
#if defined(MENISCUS_CUDA_ON_CPU)
    previous_ = cuda_cpu::memory_limit();
    cuda_cpu::set_memory_limit(cuda_cpu::memory_in_use() + bytes);
#else
    // A GPU's free memory moves and large blocks may not fit whole: fill it greedily, halving
    // the block whenever one does not fit, until at most `bytes` is left.
    for (size_t block = size_t(1) << 40; block >= (size_t(4) << 10);) {
      const size_t free_bytes = free_device_bytes();
      if (free_bytes <= bytes) break;
      void* pointer = nullptr;
      if (cudaMalloc(&pointer, std::min(block, free_bytes - bytes)) == cudaSuccess) {
        ballast_.push_back(pointer);
      } else {
        cudaGetLastError();
        block /= 2;
      }
    }
#endif
  }
  ~MemoryCap() {
#if defined(MENISCUS_CUDA_ON_CPU)
    cuda_cpu::set_memory_limit(previous_);
#else
    for (void* pointer : ballast_) cudaFree(pointer);
#endif
  }

 private:
  [[maybe_unused]] size_t previous_ = 0;
  [[maybe_unused]] std::vector<void*> ballast_;
};

// The CPU execution layer counts bytes exactly; a driver reports free memory in pages.
#if defined(MENISCUS_CUDA_ON_CPU)
constexpr size_t kFreeMemorySlack = 0;
#else
constexpr size_t kFreeMemorySlack = size_t(2) << 20;
#endif

// Float atomics order a step's sums differently run to run, so two stages agree in their
// physics, not bit for bit: the same count, every particle finite, the front and the mean
// density within a percent.
bool alike(const std::vector<sim::Particle>& a, const std::vector<sim::Particle>& b) {
  if (a.size() != b.size() || a.empty()) return false;
  auto summary = [](const std::vector<sim::Particle>& particles, double& front, double& density) {
    front = density = 0.0;
    bool finite = true;
    for (const sim::Particle& p : particles) {
      front = std::max<double>(front, p.position[0]);
      density += p.density;
      for (int c = 0; c < 3; ++c) finite = finite && std::isfinite(p.position[c]) && std::isfinite(p.velocity[c]);
    }
    density /= double(particles.size());
    return finite;
  };
  double front_a = 0, density_a = 0, front_b = 0, density_b = 0;
  const bool finite = summary(a, front_a, density_a) && summary(b, front_b, density_b);
  std::printf("front %.5f vs %.5f m, mean density %.2f vs %.2f kg/m^3\n", front_a, front_b, density_a, density_b);
  return finite && std::abs(front_a - front_b) <= 0.01 * front_b && std::abs(density_a - density_b) <= 0.01 * density_b;
}

// A small dam break with a fixed step, so two stages take the same substeps.
sim::SphParams small_dam_break() {
  sim::SphParams p = test::dam_break_params({.a = 0.05f, .columns = 10, .depth = 0.02f});
  p.adaptive = false;
  p.fixed_dt = 0.002f;
  return p;
}

void run_checks() {
  const sim::SphParams params = small_dam_break();
  // Two stages stepped alike; one will be asked for a reset that does not fit. Made first, so
  // the device has loaded its kernels before its free memory is taken as the baseline.
  auto asked = sim::make_sph_cuda_headless(params);
  auto twin = sim::make_sph_cuda_headless(params);
  for (int frame = 0; frame < 5; ++frame) {
    asked->step(1.0 / 60.0);
    twin->step(1.0 / 60.0);
  }
  const size_t baseline = free_device_bytes();

  // A stage that does not fit: a clear error, and the device as it was.
  {
    MemoryCap cap(1 << 16);
    std::string message;
    try {
      sim::make_sph_cuda_headless(params);
    } catch (const DeviceMemoryError& error) {
      message = error.what();
    }
    std::printf("refused: %s\n", message.c_str());
    check(message.find("out of device memory") != std::string::npos && message.find(" free of ") != std::string::npos,
          "a stage the device cannot hold is a DeviceMemoryError saying what it needed and what was free");
  }
  const size_t after = free_device_bytes();
  check(after + kFreeMemorySlack >= baseline && after <= baseline + kFreeMemorySlack,
        "the refused stage left no device memory behind");

  const size_t count = asked->particles().size();
  float *radius = nullptr, *viscosity = nullptr;
  for (const sim::StageControl& control : asked->controls()) {
    if (control.resets) radius = control.value;
    if (control.label.rfind("viscosity", 0) == 0) viscosity = control.value;
  }
  check(radius && viscosity, "the stage has a particle radius control that resets it, and a viscosity one");
  if (!radius || !viscosity) return;
  const float old_radius = *radius;
  *radius = 0.5f * old_radius;  // eight times the particles
  const float live_viscosity = *viscosity * 2.0f + 1e-6f;  // a slider moved since the last reset...
  *viscosity = live_viscosity;
  const size_t before_reset = free_device_bytes();
  std::string message;
  {
    MemoryCap cap(1 << 20);
    try {
      asked->reset();
    } catch (const DeviceMemoryError& error) {
      message = error.what();
    }
  }
  std::printf("refused: %s\n", message.c_str());
  check(message.find("sph (cuda)") == 0 && message.find("out of device memory") != std::string::npos,
        "a reset the device cannot hold is a DeviceMemoryError naming the stage");
  check(*radius == old_radius, "the refused reset put the particle radius back");
  check(*viscosity == live_viscosity, "...and kept the viscosity, which takes effect without a reset");
  const size_t after_reset = free_device_bytes();
  check(after_reset + kFreeMemorySlack >= before_reset && after_reset <= before_reset + kFreeMemorySlack,
        "the refused reset kept its old arrays and freed the new ones");
  check(asked->particles().size() == count, "the refused reset kept the particles");
  for (const sim::StageControl& control : twin->controls())
    if (control.label.rfind("viscosity", 0) == 0) *control.value = live_viscosity;
  for (int frame = 0; frame < 5; ++frame) {
    asked->step(1.0 / 60.0);
    twin->step(1.0 / 60.0);
  }
  check(alike(asked->particles(), twin->particles()),
        "after the refusal the stage steps as one that was never asked");

  // With memory there, the same reset takes.
  *radius = 0.5f * old_radius;
  asked->reset();
  check(asked->particles().size() > 4 * count, "the same reset succeeds once the device has the memory");
  asked->step(1.0 / 60.0);
  check(!asked->particles().empty(), "and the stage steps");
}
#endif

int run() {
#if !MENISCUS_HAS_CUDA
  std::printf("SKIP: built without the CUDA backend\n");
  return MENISCUS_SKIP_CODE;
#else
  std::string why;
  if (!sim::cuda_device_answers(&why)) {
    std::printf("SKIP: %s\n", why.c_str());
    return MENISCUS_SKIP_CODE;
  }
  run_checks();
  return device_test::summary();
#endif
}

}  // namespace
}  // namespace meniscus

int main() { return meniscus::device_test::run_main(meniscus::run); }
