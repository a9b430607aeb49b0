#pragma once
// One timeline semaphore orders CUDA and Vulkan work frame to frame: the simulation signals
// "frame N written", the frame's submission waits for it and signals "frame N read", and the
// simulation waits for that before it overwrites the buffer. Values only ever increase; a
// signal that does not is refused with a DeviceError before it reaches the driver.
#include <cstdint>

#include <vulkan/vulkan.h>

namespace meniscus {

class Context;

class TimelineSemaphore {
 public:
  // `cuda_shared`: exported as an opaque fd and imported into CUDA
  // (cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd); on a device that cannot export
  // semaphores (lavapipe), CUDA waits and signals it through host functions in stream order.
  // Throws a DeviceError when CUDA is not built or CUDA cannot import it.
  TimelineSemaphore(const Context& context, bool cuda_shared, uint64_t initial = 0);
  ~TimelineSemaphore();
  TimelineSemaphore(const TimelineSemaphore&) = delete;
  TimelineSemaphore& operator=(const TimelineSemaphore&) = delete;

  VkSemaphore handle() const { return semaphore_; }
  bool cuda_shared() const { return cuda_semaphore_ != nullptr; }

  // The counter as the device sees it now.
  uint64_t value() const;
  // The largest value signalled so far through this object, or seen on the device: the next
  // signal must exceed it. Submissions that signal the semaphore are not tracked until seen.
  uint64_t last_signalled() const { return last_signalled_; }

  // From the host (vkSignalSemaphore); throws DeviceError if `value` does not increase.
  void signal(uint64_t value);
  // Blocks the host until the counter reaches `value`. With a timeout (ns), returns false on
  // expiry instead of waiting forever.
  void wait(uint64_t value) const;
  bool wait_for(uint64_t value, uint64_t timeout_ns) const;

  // CUDA side (cuda-shared semaphores only); `stream` is a cudaStream_t (null: legacy stream).
  // The wait makes later work on `stream` wait for `value`; the signal sets it when `stream`
  // reaches it, and throws DeviceError if `value` does not increase.
  void cuda_wait(uint64_t value, void* stream) const;
  void cuda_signal(uint64_t value, void* stream);

 private:
  void require_increase(uint64_t value, const char* who);
  void release() noexcept;

  const Context& context_;
  VkSemaphore semaphore_ = VK_NULL_HANDLE;
  void* cuda_semaphore_ = nullptr;  // cudaExternalSemaphore_t
  uint64_t last_signalled_ = 0;
};

}  // namespace meniscus
