#include "engine/interop/timeline.h"

#include <unistd.h>

#include "engine/core/context.h"
#include "engine/core/error.h"
#include "engine/interop/cuda_api.h"

namespace meniscus {

TimelineSemaphore::TimelineSemaphore(const Context& context, bool cuda_shared, uint64_t initial)
    : context_(context), last_signalled_(initial) {
  if (cuda_shared && !context.info().external_memory_fd)
    throw DeviceError("device " + context.info().name + " cannot export semaphores (VK_KHR_external_semaphore_fd)");
  VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
  type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
  type.initialValue = initial;
  VkExportSemaphoreCreateInfo export_info{VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO};
  export_info.handleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
  if (cuda_shared) type.pNext = &export_info;
  VkSemaphoreCreateInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  info.pNext = &type;
  VK_CHECK(vkCreateSemaphore(context.device(), &info, nullptr, &semaphore_));
  if (!cuda_shared) return;

  auto get_fd = reinterpret_cast<PFN_vkGetSemaphoreFdKHR>(vkGetDeviceProcAddr(context.device(), "vkGetSemaphoreFdKHR"));
  VkSemaphoreGetFdInfoKHR fd_info{VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR};
  fd_info.semaphore = semaphore_;
  fd_info.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
  int fd = -1;
  VK_CHECK(get_fd(context.device(), &fd_info, &fd));
  try {
    cuda_semaphore_ = cuda_api::import_timeline(fd);
  } catch (...) {
    close(fd);
    throw;
  }
}

TimelineSemaphore::~TimelineSemaphore() {
  if (cuda_semaphore_) cuda_api::release_timeline(cuda_semaphore_);
  vkDestroySemaphore(context_.device(), semaphore_, nullptr);
}

uint64_t TimelineSemaphore::value() const {
  uint64_t value = 0;
  VK_CHECK(vkGetSemaphoreCounterValue(context_.device(), semaphore_, &value));
  return value;
}

void TimelineSemaphore::signal(uint64_t value) {
  if (value <= last_signalled_)
    throw DeviceError("timeline semaphore: signal " + std::to_string(value) + " after " +
                      std::to_string(last_signalled_) + " (values must increase)");
  VkSemaphoreSignalInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
  info.semaphore = semaphore_;
  info.value = value;
  VK_CHECK(vkSignalSemaphore(context_.device(), &info));
  last_signalled_ = value;
}

void TimelineSemaphore::wait(uint64_t value) const {
  VkSemaphoreWaitInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
  info.semaphoreCount = 1;
  info.pSemaphores = &semaphore_;
  info.pValues = &value;
  VK_CHECK(vkWaitSemaphores(context_.device(), &info, UINT64_MAX));
}

void TimelineSemaphore::cuda_wait(uint64_t value, void* stream) const {
  if (!cuda_semaphore_) throw DeviceError("timeline semaphore was not shared with CUDA");
  cuda_api::wait_timeline(cuda_semaphore_, value, stream);
}

void TimelineSemaphore::cuda_signal(uint64_t value, void* stream) {
  if (!cuda_semaphore_) throw DeviceError("timeline semaphore was not shared with CUDA");
  if (value <= last_signalled_)
    throw DeviceError("timeline semaphore: CUDA signal " + std::to_string(value) + " after " +
                      std::to_string(last_signalled_) + " (values must increase)");
  cuda_api::signal_timeline(cuda_semaphore_, value, stream);
  last_signalled_ = value;
}

}  // namespace meniscus
