#pragma once
// CPU backend of the ballistic stage: TBB over particles.
#include <vector>

#include "sim/ballistic/ballistic_math.h"
#include "sim/common/particle_stage.h"

namespace meniscus::sim {

class BallisticCpu : public ParticleStage {
 public:
  explicit BallisticCpu(const BallisticParams& params);

  std::string_view name() const override { return "ballistic"; }
  SimBackend backend() const override { return SimBackend::Cpu; }
  size_t count() const override { return states_.size(); }
  void step(double dt) override;
  void write(SharedBuffer& target) override;

  // The current particles, for tests.
  std::vector<Particle> particles() const;
  const std::vector<ballistic::State>& states() const { return states_; }

 private:
  BallisticParams params_;
  std::vector<ballistic::State> states_;
  double pending_ = 0.0;  // simulated time not yet covered by whole fixed steps
};

}  // namespace meniscus::sim
