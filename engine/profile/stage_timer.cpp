#include "engine/profile/stage_timer.h"

#include <algorithm>
#include <stdexcept>

namespace meniscus::profile {

void CpuStageTimer::begin(std::string_view stage) {
  const bool open = std::any_of(entries_.begin(), entries_.end(),
                                [&](const Entry& e) { return e.ms < 0.0 && e.name == stage; });
  if (open) throw std::logic_error("stage timer: '" + std::string(stage) + "' begun twice without end");
  entries_.push_back({std::string(stage), CpuTimer(), -1.0});
}

void CpuStageTimer::end(std::string_view stage) {
  const auto it = std::find_if(entries_.begin(), entries_.end(),
                               [&](const Entry& e) { return e.ms < 0.0 && e.name == stage; });
  if (it == entries_.end()) throw std::logic_error("stage timer: end of '" + std::string(stage) + "' without begin");
  it->ms = it->timer.elapsed_ms();
}

std::vector<StageSample> CpuStageTimer::collect() {
  std::vector<StageSample> samples;
  std::vector<Entry> still_open;
  for (Entry& e : entries_) {
    if (e.ms < 0.0) still_open.push_back(std::move(e));
    else samples.push_back({std::move(e.name), std::string(backend()), e.ms});
  }
  entries_ = std::move(still_open);
  return samples;
}

}  // namespace meniscus::profile
