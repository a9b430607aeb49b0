#include "tools/bench/bench_setup.h"

#include <malloc.h>

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "engine/core/error.h"

namespace meniscus::bench {

std::unique_ptr<tbb::global_control> benchmark_environment(int threads) {
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, -1);
  return std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism, size_t(threads));
}

std::string BenchFlags::value() {
  if (at_ + 1 >= argc_) throw InputError(flag() + ": missing value");
  return argv_[++at_];
}

int BenchFlags::integer(int lo, int hi, const char* note) {
  const std::string name = flag();
  return int(parse_integer(name, value(), lo, hi, note));
}

double BenchFlags::number(double lo, double hi, const char* note) {
  const std::string name = flag();
  return parse_number(name, value(), lo, hi, note);
}

double upper_median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream list(text);
  for (std::string item; std::getline(list, item, ',');) items.push_back(item);
  return items;
}

void print_line(const profile::JsonWriter& json) {
  std::printf("%s\n", json.str().c_str());
  std::fflush(stdout);
}

}  // namespace meniscus::bench
