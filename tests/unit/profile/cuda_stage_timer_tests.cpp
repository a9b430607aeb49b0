// The CUDA sim-stage timer on a real CUDA device: events around a large memset on a stream.
// Exits with MENISCUS_SKIP_CODE (ctest: skipped) and says why when CUDA is not built or no
// CUDA device answers.
#include <cstdio>
#include <string>

#include "engine/core/error.h"
#include "engine/profile/cuda_stage_timer.h"
#include "tests/support/device_checks.h"

#if MENISCUS_HAS_CUDA
#include <cuda_runtime.h>
#endif

#if MENISCUS_HAS_CUDA
namespace {

using meniscus::device_test::check;

}  // namespace
#endif

int main() {
#if !MENISCUS_HAS_CUDA
  std::printf("SKIP: built without CUDA (MENISCUS_CUDA=OFF or no nvcc)\n");
  return MENISCUS_SKIP_CODE;
#else
  int devices = 0;
  const cudaError_t probe = cudaGetDeviceCount(&devices);
  if (probe != cudaSuccess || devices == 0) {
    std::printf("SKIP: no CUDA device answers (%s)\n", probe != cudaSuccess ? cudaGetErrorString(probe) : "0 devices");
    return MENISCUS_SKIP_CODE;
  }
  try {
    cudaStream_t stream = nullptr;
    if (cudaStreamCreate(&stream) != cudaSuccess) throw meniscus::DeviceError("cudaStreamCreate failed");
    constexpr size_t kBytes = size_t(1) << 30;
    void* memory = nullptr;
    if (cudaMalloc(&memory, kBytes) != cudaSuccess) throw meniscus::DeviceError("cudaMalloc failed");

    meniscus::profile::CudaStageTimer timer(stream);
    check(timer.backend() == "cuda", "backend is cuda");
    for (int frame = 0; frame < 3; ++frame) {  // events are reused from the second frame on
      timer.begin("memset.1gib");
      cudaMemsetAsync(memory, frame, kBytes, stream);
      timer.end("memset.1gib");
      timer.begin("empty");
      timer.end("empty");
      const auto samples = timer.collect();
      check(samples.size() == 2, "two stages collected in frame " + std::to_string(frame));
      if (samples.size() != 2) continue;
      check(samples[0].name == "memset.1gib" && samples[1].name == "empty", "stages in begin order");
      check(samples[0].backend == "cuda", "samples carry the cuda backend");
      // 1 GiB at a few TB/s is well above 0.05 ms and well below a second.
      check(samples[0].ms > 0.05 && samples[0].ms < 1000.0,
            "memset time plausible: " + std::to_string(samples[0].ms) + " ms");
      check(samples[1].ms >= 0.0 && samples[1].ms < samples[0].ms, "empty stage shorter than the memset");
    }
    check(timer.collect().empty(), "nothing left after collect");
    bool threw = false;
    try {
      timer.end("never.begun");
    } catch (const std::logic_error&) {
      threw = true;
    }
    check(threw, "end without begin throws");
    cudaFree(memory);
    cudaStreamDestroy(stream);
  } catch (const std::exception& error) {
    std::printf("FAIL: %s\n", error.what());
    return 1;
  }
  return meniscus::device_test::summary();
#endif
}
