#include "engine/core/error.h"
#include "sim/sph/sph_cuda.h"

namespace meniscus::sim {

std::unique_ptr<SphStage> make_sph_cuda(const SphParams&, const Context&) {
  throw DeviceError("sph: CUDA backend not built (MENISCUS_CUDA=OFF or no nvcc)");
}

std::unique_ptr<SphStage> make_sph_cuda_headless(const SphParams&) {
  throw DeviceError("sph: CUDA backend not built (MENISCUS_CUDA=OFF or no nvcc)");
}

}  // namespace meniscus::sim
