// CUDA side of the interop, after NVIDIA's simpleVulkan sample: external memory imported as a
// dedicated opaque-fd allocation and mapped as one buffer; the timeline semaphore imported as
// cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd and waited/signalled with fence values.
#include <cuda_runtime.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>

#include "engine/core/context.h"
#include "engine/core/error.h"
#include "engine/interop/cuda_api.h"
#include "engine/interop/cuda_device.h"

namespace meniscus {
namespace {

[[noreturn]] void throw_cuda(cudaError_t error, const char* call, const char* file, int line) {
  throw DeviceError(std::string(file) + ":" + std::to_string(line) + ": " + call + " failed: " +
                    cudaGetErrorName(error) + " (" + cudaGetErrorString(error) + ")");
}

}  // namespace

#define MENISCUS_CUDA_CHECK(call)                                          \
  do {                                                                     \
    const cudaError_t cuda_check_error_ = (call);                          \
    if (cuda_check_error_ != cudaSuccess)                                  \
      ::meniscus::throw_cuda(cuda_check_error_, #call, __FILE__, __LINE__); \
  } while (0)

namespace cuda_api {

void import_buffer(int fd, uint64_t allocation_size, uint64_t buffer_size, void** external_memory, void** device_pointer) {
  cudaExternalMemoryHandleDesc desc{};
  desc.type = cudaExternalMemoryHandleTypeOpaqueFd;
  desc.handle.fd = fd;
  desc.size = allocation_size;
  desc.flags = cudaExternalMemoryDedicated;
  cudaExternalMemory_t memory = nullptr;
  const cudaError_t imported = cudaImportExternalMemory(&memory, &desc);
  if (imported != cudaSuccess) {
    close(fd);  // still ours: CUDA takes the fd only on success
    throw_cuda(imported, "cudaImportExternalMemory(opaque fd, dedicated)", __FILE__, __LINE__);
  }
  cudaExternalMemoryBufferDesc buffer{};
  buffer.offset = 0;
  buffer.size = buffer_size;
  void* pointer = nullptr;
  const cudaError_t mapped = cudaExternalMemoryGetMappedBuffer(&pointer, memory, &buffer);
  if (mapped != cudaSuccess) {
    cudaDestroyExternalMemory(memory);  // closes the fd CUDA now owns
    throw_cuda(mapped, "cudaExternalMemoryGetMappedBuffer", __FILE__, __LINE__);
  }
  *external_memory = memory;
  *device_pointer = pointer;
}

void release_buffer(void* external_memory, void* device_pointer) noexcept {
  // Nothing may still be writing the memory when Vulkan frees it.
  cudaDeviceSynchronize();
  if (device_pointer) cudaFree(device_pointer);
  cudaDestroyExternalMemory(static_cast<cudaExternalMemory_t>(external_memory));
}

namespace {

// A timeline as CUDA sees it: CUDA's external semaphore, or the Vulkan semaphore itself, waited
// and signalled by host functions on the stream.
struct Timeline {
  cudaExternalSemaphore_t external = nullptr;
  VkDevice device = VK_NULL_HANDLE;
  VkSemaphore semaphore = VK_NULL_HANDLE;
};

struct HostStep {
  VkDevice device;
  VkSemaphore semaphore;
  uint64_t value;
};

// A wait that never ends would hang the stream and, at the next synchronisation, the program:
// after this long it ends the program with the reason instead.
constexpr uint64_t kHostWaitTimeoutNs = 60'000'000'000ull;

void CUDART_CB host_wait(void* data) {
  const std::unique_ptr<HostStep> step(static_cast<HostStep*>(data));
  VkSemaphoreWaitInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
  info.semaphoreCount = 1;
  info.pSemaphores = &step->semaphore;
  info.pValues = &step->value;
  const VkResult result = vkWaitSemaphores(step->device, &info, kHostWaitTimeoutNs);
  if (result != VK_SUCCESS) {
    std::fprintf(stderr, "meniscus: a CUDA stream's wait for timeline value %llu failed (VkResult %d)\n",
                 (unsigned long long)step->value, int(result));
    std::abort();  // a host function cannot hand an error to the stream
  }
}

void CUDART_CB host_signal(void* data) {
  const std::unique_ptr<HostStep> step(static_cast<HostStep*>(data));
  VkSemaphoreSignalInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
  info.semaphore = step->semaphore;
  info.value = step->value;
  const VkResult result = vkSignalSemaphore(step->device, &info);
  if (result != VK_SUCCESS) {
    std::fprintf(stderr, "meniscus: a CUDA stream's signal of timeline value %llu failed (VkResult %d)\n",
                 (unsigned long long)step->value, int(result));
    std::abort();
  }
}

}  // namespace

void* import_timeline(VkDevice device, VkSemaphore semaphore, int fd) {
  auto timeline = std::make_unique<Timeline>();
  timeline->device = device;
  timeline->semaphore = semaphore;
  if (fd < 0) {
    // Nothing is imported, so ask now whether a CUDA device answers at all: the caller learns
    // here, as with an fd, rather than at the first wait.
    int count = 0;
    const cudaError_t error = cudaGetDeviceCount(&count);
    if (error != cudaSuccess || count == 0) {
      cudaGetLastError();
      throw_cuda(error != cudaSuccess ? error : cudaErrorNoDevice, "cudaGetDeviceCount (timeline through host functions)",
                 __FILE__, __LINE__);
    }
    return timeline.release();
  }
  cudaExternalSemaphoreHandleDesc desc{};
  desc.type = cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd;
  desc.handle.fd = fd;
  const cudaError_t imported = cudaImportExternalSemaphore(&timeline->external, &desc);
  if (imported != cudaSuccess) {
    close(fd);
    throw_cuda(imported, "cudaImportExternalSemaphore(timeline semaphore fd)", __FILE__, __LINE__);
  }
  return timeline.release();
}

void release_timeline(void* semaphore) noexcept {
  cudaDeviceSynchronize();
  const std::unique_ptr<Timeline> timeline(static_cast<Timeline*>(semaphore));
  if (timeline->external) cudaDestroyExternalSemaphore(timeline->external);
}

void wait_timeline(void* semaphore, uint64_t value, void* stream) {
  const auto* timeline = static_cast<Timeline*>(semaphore);
  if (!timeline->external) {
    auto step = std::make_unique<HostStep>(HostStep{timeline->device, timeline->semaphore, value});
    MENISCUS_CUDA_CHECK(cudaLaunchHostFunc(static_cast<cudaStream_t>(stream), host_wait, step.get()));
    step.release();  // the host function owns it now
    return;
  }
  cudaExternalSemaphoreWaitParams params{};
  params.params.fence.value = value;
  MENISCUS_CUDA_CHECK(cudaWaitExternalSemaphoresAsync(&timeline->external, &params, 1, static_cast<cudaStream_t>(stream)));
}

void signal_timeline(void* semaphore, uint64_t value, void* stream) {
  const auto* timeline = static_cast<Timeline*>(semaphore);
  if (!timeline->external) {
    auto step = std::make_unique<HostStep>(HostStep{timeline->device, timeline->semaphore, value});
    MENISCUS_CUDA_CHECK(cudaLaunchHostFunc(static_cast<cudaStream_t>(stream), host_signal, step.get()));
    step.release();
    return;
  }
  cudaExternalSemaphoreSignalParams params{};
  params.params.fence.value = value;
  MENISCUS_CUDA_CHECK(cudaSignalExternalSemaphoresAsync(&timeline->external, &params, 1, static_cast<cudaStream_t>(stream)));
}

}  // namespace cuda_api

bool cuda_built() { return true; }

std::optional<int> find_cuda_device(const DeviceInfo& vulkan_device, std::string* why) {
  int count = 0;
  const cudaError_t error = cudaGetDeviceCount(&count);
  if (error != cudaSuccess || count == 0) {
    // cudaErrorInsufficientDriver ("CUDA driver version is insufficient") is what a machine
    // without an NVIDIA driver says; cudaErrorNoDevice one with a driver and no GPU.
    if (why)
      *why = std::string("no CUDA device answers: ") +
             (error != cudaSuccess ? std::string(cudaGetErrorName(error)) + ", " + cudaGetErrorString(error)
                                   : std::string("0 devices"));
    cudaGetLastError();  // leave no sticky error behind for later calls
    return std::nullopt;
  }
  std::string seen;
  for (int device = 0; device < count; ++device) {
    cudaDeviceProp properties{};
    if (cudaGetDeviceProperties(&properties, device) != cudaSuccess) continue;
    if (std::memcmp(properties.uuid.bytes, vulkan_device.uuid.data(), VK_UUID_SIZE) == 0) {
      MENISCUS_CUDA_CHECK(cudaSetDevice(device));
      return device;
    }
    seen += (seen.empty() ? "" : ", ") + std::string(properties.name);
  }
  if (why)
    *why = "no CUDA device has the UUID of Vulkan device " + vulkan_device.name + " (CUDA devices: " +
           (seen.empty() ? std::string("none readable") : seen) + ")";
  return std::nullopt;
}

}  // namespace meniscus
