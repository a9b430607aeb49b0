#pragma once
// What the CUDA tests share. They are plain programs rather than Catch2 cases because each must
// first find a device and otherwise exit with MENISCUS_SKIP_CODE saying why (ctest: skipped);
// past that point they print one PASS/FAIL line per check.
#include <cstdio>
#include <exception>
#include <string>

namespace meniscus::device_test {

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
