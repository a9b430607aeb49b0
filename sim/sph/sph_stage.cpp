#include "sim/sph/sph_stage.h"

#include "sim/sph/sph_cpu.h"
#include "sim/sph/sph_cuda.h"

namespace meniscus::sim {

std::unique_ptr<SphStage> make_sph_cpu(const SphParams& params) { return std::make_unique<SphCpu>(params); }

std::unique_ptr<ParticleStage> make_sph_stage(const SphParams& params, SimBackend backend, const Context& context) {
  params.validate();
  if (backend == SimBackend::Cuda) return make_sph_cuda(params, context);
  return make_sph_cpu(params);
}

}  // namespace meniscus::sim
