#pragma once
// One timeline semaphore orders CUDA and Vulkan work frame to frame: the simulation signals
// "frame N written", the frame's submission waits for it, and signals "frame N read" for the
// simulation to wait on before overwriting. Values only ever increase.
#include <cstdint>

#include <vulkan/vulkan.h>

namespace meniscus {

class Context;

class TimelineSemaphore {
 public:
  // `cuda_shared`: exported as an opaque fd and imported into CUDA.
  TimelineSemaphore(const Context& context, bool cuda_shared, uint64_t initial = 0);
  ~TimelineSemaphore();
  TimelineSemaphore(const TimelineSemaphore&) = delete;
  TimelineSemaphore& operator=(const TimelineSemaphore&) = delete;

  VkSemaphore handle() const { return semaphore_; }
  uint64_t value() const;
  void signal(uint64_t value);  // from the host; throws if not greater than the current value
  void wait(uint64_t value) const;

  // CUDA side (Cuda-shared semaphores only); `stream` is a cudaStream_t.
  void cuda_wait(uint64_t value, void* stream) const;
  void cuda_signal(uint64_t value, void* stream);

 private:
  const Context& context_;
  VkSemaphore semaphore_ = VK_NULL_HANDLE;
  void* cuda_semaphore_ = nullptr;  // cudaExternalSemaphore_t
  uint64_t last_signalled_ = 0;
};

}  // namespace meniscus
