#include "sim/ballistic/ballistic_cpu.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <atomic>
#include <cstring>

#include "engine/core/error.h"
#include "engine/interop/shared_buffer.h"

namespace meniscus::sim {

namespace {
const BallisticParams& validated(const BallisticParams& params) {
  params.validate();
  return params;
}
}  // namespace

BallisticCpu::BallisticCpu(const BallisticParams& params) : params_(validated(params)), states_(params.count) {
  tbb::parallel_for(tbb::blocked_range<uint32_t>(0, params.count), [&](const tbb::blocked_range<uint32_t>& r) {
    for (uint32_t i = r.begin(); i != r.end(); ++i) states_[i] = ballistic::initial(params_, i);
  });
}

void BallisticCpu::step(double dt) {
  pending_ += dt;
  const int steps = static_cast<int>(pending_ / params_.fixed_dt);
  pending_ -= steps * double(params_.fixed_dt);
  if (steps == 0) return;
  std::atomic<uint32_t> bad{UINT32_MAX};
  // Each particle is independent: the partitioning cannot change the result.
  tbb::parallel_for(tbb::blocked_range<uint32_t>(0, params_.count), [&](const tbb::blocked_range<uint32_t>& r) {
    for (uint32_t i = r.begin(); i != r.end(); ++i) {
      ballistic::State& s = states_[i];
      for (int k = 0; k < steps; ++k) ballistic::advance(s, params_, i, params_.fixed_dt);
      // The lowest bad index is reported, whatever the partitioning.
      if (!ballistic::finite(s)) {
        uint32_t seen = bad.load();
        while (i < seen && !bad.compare_exchange_weak(seen, i)) {
        }
      }
    }
  });
  if (bad.load() != UINT32_MAX)
    throw DeviceError("ballistic (cpu): particle " + std::to_string(bad.load()) + " became non-finite");
}

void BallisticCpu::write(SharedBuffer& target) {
  if (target.size() < count() * sizeof(Particle)) throw DeviceError("ballistic: shared buffer too small");
  auto* out = static_cast<Particle*>(target.host_pointer());
  if (!out) throw DeviceError("ballistic (cpu): shared buffer is not host-visible");
  tbb::parallel_for(tbb::blocked_range<uint32_t>(0, params_.count), [&](const tbb::blocked_range<uint32_t>& r) {
    for (uint32_t i = r.begin(); i != r.end(); ++i) out[i] = ballistic::publish(states_[i]);
  });
}

std::vector<Particle> BallisticCpu::particles() const {
  std::vector<Particle> out(states_.size());
  for (size_t i = 0; i < states_.size(); ++i) out[i] = ballistic::publish(states_[i]);
  return out;
}

}  // namespace meniscus::sim
