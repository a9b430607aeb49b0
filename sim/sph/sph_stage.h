#pragma once
// The SPH fluid stage: DFSPH particles for the renderer, on the CPU or with CUDA.
#include <memory>

#include <vector>

#include "sim/common/particle_stage.h"
#include "sim/sph/sph_params.h"
#include "sim/sph/sph_stats.h"

namespace meniscus {
class Context;
}

namespace meniscus::sim {

// What both SPH backends offer beyond a ParticleStage: simulated time, solver statistics and a
// host copy of the particles (tests, benchmark, CPU == CUDA comparison).
//
// count() and the measured parts of stats() (all but substeps and last_dt) may describe an
// earlier frame than time(): the CUDA backend learns them from a record each frame leaves on the
// device and reads kPlanLag frames later (see sph_frame_plan.h), so that stepping never waits
// for the GPU. synchronize() brings them up to the last step.
class SphStage : public ParticleStage {
 public:
  std::string_view name() const override { return "sph"; }
  virtual double time() const = 0;
  virtual const SphStats& stats() const = 0;
  // Waits for every step so far, then count() and stats() describe the state after the last
  // one. Plans are unaffected: they use the lagged records whether or not this was called.
  virtual void synchronize() {}
  // The particles after the last step, in particle-id order (stable from frame to frame); waits
  // for the device like synchronize().
  virtual std::vector<Particle> particles() const = 0;
};

// Throws InputError for bad params (on every backend, before any device question).
std::unique_ptr<ParticleStage> make_sph_stage(const SphParams& params, SimBackend backend, const Context& context);

// The CPU backend directly, for tests that need no Vulkan device.
std::unique_ptr<SphStage> make_sph_cpu(const SphParams& params);

}  // namespace meniscus::sim
