// Built without CUDA: the class exists so callers need no #if, and refuses to be made.
#include "engine/core/error.h"
#include "engine/profile/cuda_stage_timer.h"

namespace meniscus::profile {

struct CudaStageTimer::State {};

CudaStageTimer::CudaStageTimer(void* stream) : stream_(stream) {
  throw DeviceError("CUDA stage timer: Meniscus was built without CUDA (MENISCUS_CUDA=OFF or no nvcc)");
}
CudaStageTimer::~CudaStageTimer() = default;
void CudaStageTimer::begin(std::string_view) {}
void CudaStageTimer::end(std::string_view) {}
std::vector<StageSample> CudaStageTimer::collect() { return {}; }

}  // namespace meniscus::profile
