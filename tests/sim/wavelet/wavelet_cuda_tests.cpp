// The CUDA lifting (horizontal pass, sliding-window vertical pass) against the CPU reference:
// integer coefficients equal bit for bit, float within 1e-5 of the coefficients' range, and the
// CUDA inverse gives integer inputs back exactly. Sizes exercise several windows per slab, odd
// lengths, partial slabs, 3-D, and rows too long for shared memory; small enough for the CPU
// execution layer. Exits with MENISCUS_SKIP_CODE (ctest: skipped) and says why when no CUDA
// device answers.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

#if MENISCUS_HAS_CUDA  // cuda_runtime.h exists only where the backend is built
#include "sim/common/cuda_support.cuh"
#endif
#include "sim/wavelet/wavelet_cpu.h"
#include "sim/wavelet/wavelet_cuda.h"
#include "tests/sim/wavelet/wavelet_test_data.h"
#include "tests/support/device_checks.h"

namespace meniscus::sim::wavelet {
namespace {

using device_test::check;

struct Case {
  Shape shape;
  int levels;
};

const Case kCases[] = {
    {Shape::plane(37, 300), 3},      // three windows per slab, a partial slab, odd width
    {Shape::plane(70, 129), 2},      // odd height: the last window ends on an approximation
    {Shape::plane(8200, 3), 1},      // rows longer than shared memory take the windowed pass
    {Shape::volume(19, 140, 9), 2},  // z lines and y columns through slabs of x
};

std::string label(const char* type, Wavelet w, const Case& c) {
  return std::string(type) + " " + wavelet_name(w) + " " + std::to_string(c.shape.size[0]) + "x" +
         std::to_string(c.shape.size[1]) + "x" + std::to_string(c.shape.size[2]) + " levels " +
         std::to_string(c.levels);
}

template <class T>
void compare(const char* type, double amplitude) {
  for (const Case& c : kCases)
    for (Wavelet w : testing::kAllWavelets) {
      const std::vector<T> input = testing::sample_data<T>(c.shape, amplitude, 17);
      std::vector<T> cpu = input, gpu = input;
      forward_cpu(std::span<T>(cpu), c.shape, w, c.levels);
      forward_cuda(gpu.data(), gpu.size(), c.shape, w, c.levels);
      const std::string what = label(type, w, c);
      if constexpr (std::is_floating_point_v<T>) {
        double range = 0, error = 0;
        for (size_t i = 0; i < cpu.size(); ++i) {
          range = std::max(range, double(std::abs(cpu[i])));
          error = std::max(error, double(std::abs(cpu[i] - gpu[i])));
        }
        check(error <= 1e-5 * range, what + ": forward within 1e-5 (max difference " + std::to_string(error) + " of " +
                                         std::to_string(range) + ")");
        inverse_cuda(gpu.data(), gpu.size(), c.shape, w, c.levels);
        double back = 0;
        for (size_t i = 0; i < input.size(); ++i) back = std::max(back, double(std::abs(gpu[i] - input[i])));
        check(back <= 1e-5 * amplitude, what + ": CUDA inverse within 1e-5 of the input");
      } else {
        const size_t unequal = size_t(std::mismatch(cpu.begin(), cpu.end(), gpu.begin()).first - cpu.begin());
        check(cpu == gpu, what + ": forward bit-exact" +
                              (cpu == gpu ? std::string() : " (first difference at " + std::to_string(unequal) + ")"));
        inverse_cuda(gpu.data(), gpu.size(), c.shape, w, c.levels);
        check(gpu == input, what + ": CUDA inverse reconstructs bit-exactly");
      }
    }
}

int run() {
  std::string why = "built without the CUDA backend";
#if MENISCUS_HAS_CUDA
  const bool answers = sim::cuda_device_answers(&why);
#else
  const bool answers = false;
#endif
  if (!answers) {
    std::printf("SKIP: %s\n", why.c_str());
    return MENISCUS_SKIP_CODE;
  }
  compare<int32_t>("int32", 40000.0);
  compare<int16_t>("int16", 2047.0);
  compare<float>("float", 1000.0);
  return device_test::summary();
}

}  // namespace
}  // namespace meniscus::sim::wavelet

int main() { return meniscus::device_test::run_main(meniscus::sim::wavelet::run); }
