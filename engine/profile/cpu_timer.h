#pragma once
// A steady_clock stopwatch: wall time on the CPU, immune to clock adjustments.
#include <chrono>

namespace meniscus::profile {

class CpuTimer {
 public:
  using Clock = std::chrono::steady_clock;

  CpuTimer() : start_(Clock::now()) {}
  void restart() { start_ = Clock::now(); }
  Clock::time_point started() const { return start_; }
  double elapsed_ms() const { return std::chrono::duration<double, std::milli>(Clock::now() - start_).count(); }

 private:
  Clock::time_point start_;
};

}  // namespace meniscus::profile
