#include "engine/interop/timeline.h"

#include <algorithm>
#include <string>

#include "engine/core/context.h"
#include "engine/core/error.h"
#include "engine/interop/cuda_api.h"
#include "engine/interop/cuda_device.h"

namespace meniscus {

TimelineSemaphore::TimelineSemaphore(const Context& context, bool cuda_shared, uint64_t initial)
    : context_(context), last_signalled_(initial) {
  if (cuda_shared) {
    if (!cuda_built()) throw DeviceError("timeline semaphore: Meniscus was built without CUDA (MENISCUS_CUDA=OFF or no nvcc)");
  }
  const bool exported = cuda_shared && context.info().external_semaphore_fd;
  VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
  type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
  type.initialValue = initial;
  VkExportSemaphoreCreateInfo export_info{VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO};
  export_info.handleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
  if (exported) type.pNext = &export_info;
  VkSemaphoreCreateInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  info.pNext = &type;
  VK_CHECK(vkCreateSemaphore(context.device(), &info, nullptr, &semaphore_));
  if (!cuda_shared) return;

  try {
    int fd = -1;  // none: CUDA reaches the semaphore through host functions on its streams
    if (exported) {
      auto get_fd = reinterpret_cast<PFN_vkGetSemaphoreFdKHR>(vkGetDeviceProcAddr(context.device(), "vkGetSemaphoreFdKHR"));
      if (!get_fd) throw DeviceError("vkGetSemaphoreFdKHR is not available on " + context.info().name);
      VkSemaphoreGetFdInfoKHR fd_info{VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR};
      fd_info.semaphore = semaphore_;
      fd_info.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
      VK_CHECK(get_fd(context.device(), &fd_info, &fd));
    }
    cuda_semaphore_ = cuda_api::import_timeline(context.device(), semaphore_, fd);  // takes the fd
  } catch (...) {
    release();
    throw;
  }
}

void TimelineSemaphore::release() noexcept {
  if (cuda_semaphore_) cuda_api::release_timeline(cuda_semaphore_);
  cuda_semaphore_ = nullptr;
  if (semaphore_) vkDestroySemaphore(context_.device(), semaphore_, nullptr);
  semaphore_ = VK_NULL_HANDLE;
}

TimelineSemaphore::~TimelineSemaphore() { release(); }

uint64_t TimelineSemaphore::value() const {
  uint64_t value = 0;
  VK_CHECK(vkGetSemaphoreCounterValue(context_.device(), semaphore_, &value));
  return value;
}

void TimelineSemaphore::require_increase(uint64_t value, const char* who) {
  // A queue submission may have moved the counter past what this object signalled itself.
  last_signalled_ = std::max(last_signalled_, this->value());
  if (value <= last_signalled_)
    throw DeviceError(std::string("timeline semaphore: ") + who + " signal of " + std::to_string(value) +
                      " after " + std::to_string(last_signalled_) + " (values must strictly increase)");
}

void TimelineSemaphore::signal(uint64_t value) {
  require_increase(value, "host");
  VkSemaphoreSignalInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
  info.semaphore = semaphore_;
  info.value = value;
  VK_CHECK(vkSignalSemaphore(context_.device(), &info));
  last_signalled_ = value;
}

bool TimelineSemaphore::wait_for(uint64_t value, uint64_t timeout_ns) const {
  VkSemaphoreWaitInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
  info.semaphoreCount = 1;
  info.pSemaphores = &semaphore_;
  info.pValues = &value;
  const VkResult result = vkWaitSemaphores(context_.device(), &info, timeout_ns);
  if (result == VK_TIMEOUT) return false;
  VK_CHECK(result);
  return true;
}

void TimelineSemaphore::wait(uint64_t value) const { wait_for(value, UINT64_MAX); }

void TimelineSemaphore::cuda_wait(uint64_t value, void* stream) const {
  if (!cuda_semaphore_) throw DeviceError("timeline semaphore: cuda_wait on a semaphore not shared with CUDA");
  cuda_api::wait_timeline(cuda_semaphore_, value, stream);
}

void TimelineSemaphore::cuda_signal(uint64_t value, void* stream) {
  if (!cuda_semaphore_) throw DeviceError("timeline semaphore: cuda_signal on a semaphore not shared with CUDA");
  require_increase(value, "CUDA");
  cuda_api::signal_timeline(cuda_semaphore_, value, stream);
  last_signalled_ = value;
}

}  // namespace meniscus
