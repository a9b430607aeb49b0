// Built when nvcc is not found: the CUDA stream build says so.
#include "engine/core/error.h"
#include "sim/mip/coefficient_stream_cuda.h"

namespace meniscus::sim::mip {

StreamIndex build_coefficient_stream_cuda(const GreyVolume&, uint32_t, const std::function<PackedCoefficient*(size_t)>&,
                                          double*) {
  throw DeviceError("MIP coefficient stream: CUDA backend not built (MENISCUS_CUDA=OFF or no nvcc)");
}

CoefficientStream build_coefficient_stream_cuda(const GreyVolume&, uint32_t, double*) {
  throw DeviceError("MIP coefficient stream: CUDA backend not built (MENISCUS_CUDA=OFF or no nvcc)");
}

}  // namespace meniscus::sim::mip
