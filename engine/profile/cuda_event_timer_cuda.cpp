#include <cuda_runtime.h>

#include <string>

#include "engine/core/error.h"
#include "engine/profile/cuda_event_timer.h"

namespace meniscus::profile {
namespace {
void check(cudaError_t error, const char* call) {
  if (error != cudaSuccess) throw DeviceError(std::string(call) + " failed: " + cudaGetErrorString(error));
}
}  // namespace

CudaEventTimer::CudaEventTimer() {
  cudaEvent_t b, e;
  check(cudaEventCreate(&b), "cudaEventCreate");
  check(cudaEventCreate(&e), "cudaEventCreate");
  begin_ = b;
  end_ = e;
}

CudaEventTimer::~CudaEventTimer() {
  cudaEventDestroy(static_cast<cudaEvent_t>(begin_));
  cudaEventDestroy(static_cast<cudaEvent_t>(end_));
}

void CudaEventTimer::begin(void* stream) {
  check(cudaEventRecord(static_cast<cudaEvent_t>(begin_), static_cast<cudaStream_t>(stream)), "cudaEventRecord");
}

void CudaEventTimer::end(void* stream) {
  check(cudaEventRecord(static_cast<cudaEvent_t>(end_), static_cast<cudaStream_t>(stream)), "cudaEventRecord");
}

double CudaEventTimer::elapsed_ms() const {
  // A finished end event (the usual case: read a frame or more later) is read without a wait.
  if (const cudaError_t state = cudaEventQuery(static_cast<cudaEvent_t>(end_)); state == cudaErrorNotReady)
    check(cudaEventSynchronize(static_cast<cudaEvent_t>(end_)), "cudaEventSynchronize");
  else
    check(state, "cudaEventQuery");
  float ms = 0.0f;
  check(cudaEventElapsedTime(&ms, static_cast<cudaEvent_t>(begin_), static_cast<cudaEvent_t>(end_)),
        "cudaEventElapsedTime");
  return ms;
}

}  // namespace meniscus::profile
