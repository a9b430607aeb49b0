#pragma once
// What every benchmark does the same way: the thread count and the memory policy under which
// ours and the peer are timed, and one JSON object per output line.
#include <tbb/global_control.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/core/flag_values.h"  // parse_integer, parse_number, parse_image_size: flags and list items
#include "engine/profile/json_writer.h"

namespace meniscus::bench {

// Limits TBB (ours and the peers') to `threads` for the returned object's lifetime, and keeps
// freed memory in the heap: large blocks are otherwise mmap'd and unmapped on every run, and
// page faults are then what a run measures (on this VM they cost more than the algorithms; the
// peers reallocate their outputs every run as we do).
std::unique_ptr<tbb::global_control> benchmark_environment(int threads);

// A benchmark's command line, flag by flag: `for (BenchFlags flags(argc, argv); flags.next();)`,
// then flag() names the flag and value() takes its argument (InputError "<flag>: missing value"
// when there is none); integer() and number() read it as parse_integer and parse_number
// (engine/core/flag_values.h) do.
class BenchFlags {
 public:
  BenchFlags(int argc, char** argv) : argc_(argc), argv_(argv) {}
  bool next() { return ++at_ < argc_; }
  std::string flag() const { return argv_[at_]; }
  std::string value();
  int integer(int lo, int hi, const char* note = nullptr);
  double number(double lo, double hi, const char* note = nullptr);

 private:
  int argc_;
  char** argv_;
  int at_ = 0;  // argv[0] is the benchmark's name
};

// The items of a comma-separated flag value, in order.
std::vector<std::string> split_list(const std::string& text);

// The middle of the timings (the upper one of two); 0 for none.
double upper_median(std::vector<double> values);

// Prints the object as one line and flushes, so a killed run keeps what it measured.
void print_line(const profile::JsonWriter& json);

}  // namespace meniscus::bench
