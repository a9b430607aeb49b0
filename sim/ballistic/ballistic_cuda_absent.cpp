#include "engine/core/error.h"
#include "sim/ballistic/ballistic_cuda.h"

namespace meniscus::sim {

std::unique_ptr<ParticleStage> make_ballistic_cuda(const BallisticParams&, const Context&) {
  throw DeviceError("ballistic: CUDA backend not built (MENISCUS_CUDA=OFF or no nvcc)");
}

}  // namespace meniscus::sim
