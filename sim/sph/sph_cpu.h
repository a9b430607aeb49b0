#pragma once
// CPU backend of the SPH stage: DFSPH with TBB over particles. The reference for the CUDA
// backend, and deterministic: every reduction has a fixed shape and the cell sort is made
// order-independent, so a seed gives bit-identical runs whatever the thread count.
#include <deque>
#include <vector>

#include "sim/sph/sph_cell_sort.h"
#include "sim/sph/sph_frame_plan.h"
#include "sim/sph/sph_setup.h"
#include "sim/sph/sph_stage.h"

namespace meniscus::sim {

class SphCpu : public SphStage {
 public:
  explicit SphCpu(const SphParams& params);

  SimBackend backend() const override { return SimBackend::Cpu; }
  size_t count() const override { return position_.size(); }
  float particle_radius() const override { return params_.particle_radius; }
  size_t capacity() const override { return setup_.capacity; }
  void step(double dt) override;
  void write(SharedBuffer& target) override;
  void reset() override;
  std::vector<StageControl> controls() override;

  std::vector<Particle> particles() const override;
  double time() const override { return time_; }
  const SphStats& stats() const override { return stats_; }
  const SphParams& params() const { return params_; }
  const sph::Constants& constants() const { return setup_.constants; }

 private:
  void substep(float dt, const sph::FramePlan& plan);
  void sort_particles();
  void find_neighbours_and_densities();
  int solve(void (*predict)(const sph::Constants&, const sph::Arrays&, uint32_t, float), float tolerance,
            int min_iterations, int budget, float dt);
  void apply_non_pressure_forces(float dt);
  void integrate(float dt);
  void emit_and_remove(float dt);
  void publish(Particle* out) const;
  float max_speed() const;
  double mean_error() const;
  sph::Arrays arrays();

  SphParams params_;
  float scene_radius_;  // the particle-size slider's range is around it
  sph::Setup setup_;
  sph::EmitterSchedule emitters_;
  sph::CellSort fluid_sort_;
  std::vector<uint32_t> boundary_cell_begin_;

  // Per particle, in the current (Z-order) arrangement.
  std::vector<sph::Vec3> position_, velocity_, previous_velocity_, acceleration_, normal_;
  std::vector<float> density_, factor_, kappa_, error_, agitation_;
  std::vector<uint32_t> id_;  // dense 0..count-1: the particle's place in published buffers
  std::vector<uint32_t> neighbour_begin_, neighbours_, boundary_begin_, boundary_neighbours_;
  std::vector<sph::Vec3> neighbour_gradient_, boundary_gradient_;  // beside the two lists
  std::vector<std::vector<uint32_t>> fluid_chunks_, boundary_chunks_;  // the search's scratch

  uint32_t indexed_ = 0;  // particles the grid of the last sort indexes (0: none, or stale)
  double time_ = 0.0;
  double pending_ = 0.0;  // fixed-step mode: simulated time not yet covered by whole steps
  SphStats stats_;

  // Planning as the CUDA backend does (sph_frame_plan.h): frames' outcomes wait kPlanLag frames.
  sph::FramePlanner planner_;
  std::deque<sph::FrameOutcome> outcomes_;
  sph::FrameOutcome recorded_;  // what the next plan uses until a newer outcome is due
  int density_most_ = -1, divergence_most_ = -1;  // in the frame being stepped
};

}  // namespace meniscus::sim
