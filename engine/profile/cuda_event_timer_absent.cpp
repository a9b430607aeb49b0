#include "engine/core/error.h"
#include "engine/profile/cuda_event_timer.h"

namespace meniscus::profile {

CudaEventTimer::CudaEventTimer() { throw DeviceError("CUDA event timer: Meniscus was built without CUDA"); }
CudaEventTimer::~CudaEventTimer() = default;
void CudaEventTimer::begin(void*) {}
void CudaEventTimer::end(void*) {}
double CudaEventTimer::elapsed_ms() const { return 0.0; }

}  // namespace meniscus::profile
