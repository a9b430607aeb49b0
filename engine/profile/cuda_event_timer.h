#pragma once
// The timing hook for CUDA simulation stages: a pair of CUDA events recorded on the stage's
// stream around its kernels, read after the stream has passed them. Opaque handles keep this
// header free of CUDA; without CUDA the constructor throws a DeviceError. For named stages
// behind the StageTimer interface, see cuda_stage_timer.h.
namespace meniscus::profile {

class CudaEventTimer {
 public:
  CudaEventTimer();
  ~CudaEventTimer();
  CudaEventTimer(const CudaEventTimer&) = delete;
  CudaEventTimer& operator=(const CudaEventTimer&) = delete;

  void begin(void* stream);  // stream: a cudaStream_t
  void end(void* stream);
  // Milliseconds between begin() and end(); waits for the end event if it is still pending.
  double elapsed_ms() const;

 private:
  [[maybe_unused]] void* begin_ = nullptr;  // cudaEvent_t (unused where CUDA is absent)
  [[maybe_unused]] void* end_ = nullptr;
};

}  // namespace meniscus::profile
