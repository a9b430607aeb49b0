#pragma once
// The CUDA runtime calls interop needs, behind opaque pointers so that no header of the engine
// depends on CUDA. Built from cuda_api_cuda.cpp when nvcc is found, else from
// cuda_api_absent.cpp, whose functions throw a DeviceError saying CUDA was not built.
#include <cstddef>
#include <cstdint>

#include <vulkan/vulkan.h>

namespace meniscus::cuda_api {

// Imports an opaque-fd dedicated allocation of `allocation_size` bytes and maps its first
// `buffer_size` bytes; returns the cudaExternalMemory_t and the device pointer. Takes the fd
// in every case: CUDA owns it after a successful import, and it is closed on failure.
void import_buffer(int fd, uint64_t allocation_size, uint64_t buffer_size, void** external_memory, void** device_pointer);
// Frees the mapped pointer, then destroys the external memory (the Vulkan memory is freed after).
void release_buffer(void* external_memory, void* device_pointer) noexcept;

// Imports a Vulkan timeline semaphore: through its opaque fd (fd >= 0; taken as import_buffer
// takes it), or, without one, as host functions on the stream that wait for and signal it with
// vkWaitSemaphores / vkSignalSemaphore in stream order. The second serves devices that export
// memory but not semaphores: lavapipe, under the tests' CPU execution of CUDA.
void* import_timeline(VkDevice device, VkSemaphore semaphore, int fd);
void release_timeline(void* semaphore) noexcept;
void wait_timeline(void* semaphore, uint64_t value, void* stream);
void signal_timeline(void* semaphore, uint64_t value, void* stream);

}  // namespace meniscus::cuda_api
