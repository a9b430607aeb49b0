#pragma once
// What the CUDA tests share. They are plain programs rather than Catch2 cases because each must
// first find a device and otherwise exit with MENISCUS_SKIP_CODE saying why (ctest: skipped);
// past that point they print one PASS/FAIL line per check.
#include <cstdint>
#include <cstdio>
#include <exception>
#include <optional>
#include <string>

#if defined(MENISCUS_CUDA_ON_CPU)
#include "cuda_cpu/control.h"
#endif

namespace meniscus::device_test {

// Whether the CUDA code runs on the CPU execution layer (slow: a test keeps the real device's
// largest sizes for a real device).
#if defined(MENISCUS_CUDA_ON_CPU)
inline constexpr bool kOnCpuLayer = true;
#else
inline constexpr bool kOnCpuLayer = false;
#endif

inline int failures = 0;  // failed checks so far in this program

inline void check(bool ok, const std::string& what) {
  std::printf("%s: %s\n", ok ? "PASS" : "FAIL", what.c_str());
  std::fflush(stdout);  // a crash in the next call keeps this line
  failures += ok ? 0 : 1;
}

// The exit code after the last check, with a summary line.
inline int summary() {
  std::printf("%d failed\n", failures);
  return failures == 0 ? 0 : 1;
}

// How often the host has waited for CUDA work so far, where that can be counted: on the CPU
// execution layer, which sees every synchronous call (a real driver does not say).
inline std::optional<uint64_t> cuda_host_waits() {
#if defined(MENISCUS_CUDA_ON_CPU)
  return cuda_cpu::host_waits();
#else
  return std::nullopt;
#endif
}

// main()'s body: `run` (which returns an exit code), an escaped exception being one FAIL line.
inline int run_main(int (*run)()) {
  try {
    return run();
  } catch (const std::exception& error) {
    std::printf("FAIL: %s\n", error.what());
    return 1;
  }
}

}  // namespace meniscus::device_test
