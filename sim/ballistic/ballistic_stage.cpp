#include "sim/ballistic/ballistic_stage.h"

#include "sim/ballistic/ballistic_cpu.h"
#include "sim/ballistic/ballistic_cuda.h"

namespace meniscus::sim {

std::unique_ptr<ParticleStage> make_ballistic_cpu(const BallisticParams& params) {
  return std::make_unique<BallisticCpu>(params);
}

std::unique_ptr<ParticleStage> make_ballistic_stage(const BallisticParams& params, SimBackend backend,
                                                    const Context& context) {
  params.validate();  // bad input is an InputError on every backend, before any device question
  if (backend == SimBackend::Cuda) return make_ballistic_cuda(params, context);
  return make_ballistic_cpu(params);
}

}  // namespace meniscus::sim
