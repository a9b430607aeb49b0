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
class SphStage : public ParticleStage {
 public:
  std::string_view name() const override { return "sph"; }
  virtual double time() const = 0;
  virtual const SphStats& stats() const = 0;
  // In particle-id order (stable from frame to frame).
  virtual std::vector<Particle> particles() const = 0;
};

// Throws InputError for bad params (on every backend, before any device question).
std::unique_ptr<ParticleStage> make_sph_stage(const SphParams& params, SimBackend backend, const Context& context);

// The CPU backend directly, for tests that need no Vulkan device.
std::unique_ptr<SphStage> make_sph_cpu(const SphParams& params);

}  // namespace meniscus::sim
