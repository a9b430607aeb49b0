#include "tools/bench/bench_setup.h"

#include <malloc.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <sstream>
#include <utility>

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

namespace {

template <class T>
std::string range_text(T lo, T hi) {
  std::ostringstream text;
  text << "[" << lo << ", " << hi << "]";
  return text.str();
}

[[noreturn]] void reject(const std::string& flag, const std::string& what, const std::string& text, const char* note) {
  throw InputError(flag + ": expected " + what + (note ? std::string(" (") + note + ")" : "") + ", got '" + text + "'");
}

}  // namespace

long long parse_integer(const std::string& flag, const std::string& text, long long lo, long long hi,
                        const char* note) {
  long long n = 0;
  const char* last = text.data() + text.size();
  const auto [end, error] = std::from_chars(text.data(), last, n);
  if (error != std::errc() || end != last || n < lo || n > hi)
    reject(flag, "an integer in " + range_text(lo, hi), text, note);
  return n;
}

double parse_number(const std::string& flag, const std::string& text, double lo, double hi, const char* note) {
  double x = 0.0;
  const char* last = text.data() + text.size();
  const auto [end, error] = std::from_chars(text.data(), last, x);
  // NaN compares false to both bounds; from_chars reads "inf" and "nan" as well.
  if (error != std::errc() || end != last || !(x >= lo && x <= hi))
    reject(flag, "a number in " + range_text(lo, hi), text, note);
  return x;
}

ImageSize parse_image_size(const std::string& flag, const std::string& text, uint32_t lo, uint32_t hi) {
  const size_t x = text.find('x');
  const std::string what = "WxH like 1920x1080, sides in " + range_text(lo, hi);
  if (x == std::string::npos) reject(flag, what, text, nullptr);
  ImageSize size;
  for (const auto& [side, part] :
       {std::pair{&size.width, text.substr(0, x)}, std::pair{&size.height, text.substr(x + 1)}}) {
    uint32_t n = 0;
    const char* last = part.data() + part.size();
    const auto [end, error] = std::from_chars(part.data(), last, n);
    if (error != std::errc() || end != last || n < lo || n > hi) reject(flag, what, text, nullptr);
    *side = n;
  }
  return size;
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
