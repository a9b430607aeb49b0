// Without MENISCUS_CUDA: the CUDA marching cubes says so, as an error and as a reason.
#include "engine/core/error.h"
#include "sim/histopyramid/marching_cubes_cuda.h"

namespace meniscus::sim {

struct CudaMarchingCubes::Impl {};

bool cuda_marching_cubes_available(std::string* why) {
  if (why) *why = "marching cubes: CUDA backend not built (MENISCUS_CUDA=OFF or no nvcc)";
  return false;
}

CudaMarchingCubes::CudaMarchingCubes(const Volume&) {
  throw DeviceError("marching cubes: CUDA backend not built (MENISCUS_CUDA=OFF or no nvcc)");
}
CudaMarchingCubes::~CudaMarchingCubes() = default;
CudaSoup CudaMarchingCubes::extract(float, bool) { throw DeviceError("marching cubes: CUDA backend not built"); }
const std::string& CudaMarchingCubes::device_name() const {
  static const std::string none = "none";
  return none;
}

}  // namespace meniscus::sim
