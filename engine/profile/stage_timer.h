#pragma once
// The timing hook for simulation stages. A stage brackets its work with begin(name) and
// end(name); the frame loop collects the samples once per frame. The CPU implementation
// measures wall time here; the CUDA one (cuda_stage_timer.h) records events on a stream, so it
// measures the kernels, not the launches.
//
// Stages may nest or overlap as long as each end() names a stage that is open. Samples come
// back in begin() order.
#include <string>
#include <string_view>
#include <vector>

#include "engine/profile/cpu_timer.h"
#include "engine/profile/timing_log.h"

namespace meniscus::profile {

class StageTimer {
 public:
  virtual ~StageTimer() = default;
  // Throws std::logic_error if `stage` is already open.
  virtual void begin(std::string_view stage) = 0;
  // Throws std::logic_error if `stage` is not open.
  virtual void end(std::string_view stage) = 0;
  // The stages ended since the last collect(), then forgets them. A stage still open stays open
  // and is reported by the collect() after its end(). May wait for the device (CUDA).
  virtual std::vector<StageSample> collect() = 0;
  // "cpu" | "cuda": StageSample::backend of what this timer reports.
  virtual std::string_view backend() const = 0;
};

class CpuStageTimer final : public StageTimer {
 public:
  void begin(std::string_view stage) override;
  void end(std::string_view stage) override;
  std::vector<StageSample> collect() override;
  std::string_view backend() const override { return "cpu"; }

 private:
  struct Entry {
    std::string name;
    CpuTimer timer;
    double ms = -1.0;  // < 0 while open
  };
  std::vector<Entry> entries_;
};

}  // namespace meniscus::profile
