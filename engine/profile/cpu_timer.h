#pragma once
// A steady_clock stopwatch: wall time on the CPU, immune to clock adjustments; ms_since for a
// stretch begun with Clock::now().
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

inline double ms_since(CpuTimer::Clock::time_point start, CpuTimer::Clock::time_point end = CpuTimer::Clock::now()) {
  return std::chrono::duration<double, std::milli>(end - start).count();
}

}  // namespace meniscus::profile
