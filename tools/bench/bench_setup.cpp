#include "tools/bench/bench_setup.h"

#include <malloc.h>

#include <cstdio>

namespace meniscus::bench {

std::unique_ptr<tbb::global_control> benchmark_environment(int threads) {
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, -1);
  return std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism, size_t(threads));
}

void print_line(const profile::JsonWriter& json) {
  std::printf("%s\n", json.str().c_str());
  std::fflush(stdout);
}

}  // namespace meniscus::bench
