// CUDA side of the interop, after NVIDIA's simpleVulkan sample: external memory imported as a
// dedicated opaque-fd allocation and mapped as one buffer; the timeline semaphore imported as
// cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd and waited/signalled with fence values.
#include <cuda_runtime.h>

#include <cstring>
#include <optional>
#include <string>

#include "engine/core/context.h"
#include "engine/core/error.h"
#include "engine/interop/cuda_api.h"
#include "engine/interop/cuda_device.h"

#define CUDA_CHECK(call)                                                                          \
  do {                                                                                            \
    cudaError_t cuda_check_error_ = (call);                                                       \
    if (cuda_check_error_ != cudaSuccess)                                                         \
      throw ::meniscus::DeviceError(std::string(__FILE__) + ":" + std::to_string(__LINE__) + ": " + \
                                    #call + " failed: " + cudaGetErrorString(cuda_check_error_)); \
  } while (0)

namespace meniscus {
namespace cuda_api {

void import_buffer(int fd, uint64_t allocation_size, uint64_t buffer_size, void** external_memory, void** device_pointer) {
  cudaExternalMemoryHandleDesc desc{};
  desc.type = cudaExternalMemoryHandleTypeOpaqueFd;
  desc.handle.fd = fd;
  desc.size = allocation_size;
  desc.flags = cudaExternalMemoryDedicated;
  cudaExternalMemory_t memory = nullptr;
  CUDA_CHECK(cudaImportExternalMemory(&memory, &desc));
  cudaExternalMemoryBufferDesc buffer{};
  buffer.offset = 0;
  buffer.size = buffer_size;
  void* pointer = nullptr;
  CUDA_CHECK(cudaExternalMemoryGetMappedBuffer(&pointer, memory, &buffer));
  *external_memory = memory;
  *device_pointer = pointer;
}

void release_buffer(void* external_memory, void* device_pointer) {
  cudaDeviceSynchronize();
  if (device_pointer) cudaFree(device_pointer);
  cudaDestroyExternalMemory(static_cast<cudaExternalMemory_t>(external_memory));
}

void* import_timeline(int fd) {
  cudaExternalSemaphoreHandleDesc desc{};
  desc.type = cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd;
  desc.handle.fd = fd;
  cudaExternalSemaphore_t semaphore = nullptr;
  CUDA_CHECK(cudaImportExternalSemaphore(&semaphore, &desc));
  return semaphore;
}

void release_timeline(void* semaphore) {
  cudaDeviceSynchronize();
  cudaDestroyExternalSemaphore(static_cast<cudaExternalSemaphore_t>(semaphore));
}

void wait_timeline(void* semaphore, uint64_t value, void* stream) {
  cudaExternalSemaphoreWaitParams params{};
  params.params.fence.value = value;
  auto handle = static_cast<cudaExternalSemaphore_t>(semaphore);
  CUDA_CHECK(cudaWaitExternalSemaphoresAsync(&handle, &params, 1, static_cast<cudaStream_t>(stream)));
}

void signal_timeline(void* semaphore, uint64_t value, void* stream) {
  cudaExternalSemaphoreSignalParams params{};
  params.params.fence.value = value;
  auto handle = static_cast<cudaExternalSemaphore_t>(semaphore);
  CUDA_CHECK(cudaSignalExternalSemaphoresAsync(&handle, &params, 1, static_cast<cudaStream_t>(stream)));
}

}  // namespace cuda_api

bool cuda_built() { return true; }

std::optional<int> find_cuda_device(const DeviceInfo& vulkan_device, std::string* why) {
  int count = 0;
  const cudaError_t error = cudaGetDeviceCount(&count);
  if (error != cudaSuccess || count == 0) {
    // "CUDA driver version is insufficient" is what a machine without an NVIDIA driver says.
    if (why) *why = std::string("no CUDA device answers (") + (error != cudaSuccess ? cudaGetErrorString(error) : "0 devices") + ")";
    return std::nullopt;
  }
  for (int device = 0; device < count; ++device) {
    cudaDeviceProp properties{};
    if (cudaGetDeviceProperties(&properties, device) != cudaSuccess) continue;
    if (std::memcmp(properties.uuid.bytes, vulkan_device.uuid.data(), VK_UUID_SIZE) == 0) {
      CUDA_CHECK(cudaSetDevice(device));
      return device;
    }
  }
  if (why) *why = "no CUDA device has the UUID of Vulkan device " + vulkan_device.name;
  return std::nullopt;
}

}  // namespace meniscus
