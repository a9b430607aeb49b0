// External memory as the CPU execution layer imports it: the exported fd is mapped (lavapipe
// exports its memory as a memfd), so a kernel here writes the very bytes Vulkan reads. Timeline
// semaphores cannot be exported by lavapipe at all; the engine orders CUDA and Vulkan through
// host functions on the stream then (engine/interop/timeline.cpp), so no semaphore fd ever
// arrives here.
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "cuda_cpu/runtime_api.h"
#include "memory.h"
#include "streams.h"

struct CUexternalMemory_st {
  void* base = nullptr;
  size_t size = 0;
  int fd = -1;
};

cudaError_t cudaImportExternalMemory(cudaExternalMemory_t* memory, const cudaExternalMemoryHandleDesc* desc) {
  if (!memory || !desc || desc->type != cudaExternalMemoryHandleTypeOpaqueFd || desc->size == 0) return cudaErrorInvalidValue;
  void* base = mmap(nullptr, desc->size, PROT_READ | PROT_WRITE, MAP_SHARED, desc->handle.fd, 0);
  if (base == MAP_FAILED) {
    std::fprintf(stderr, "cuda_cpu: cudaImportExternalMemory: the fd cannot be mapped (%s)\n", std::strerror(errno));
    return cudaErrorNotSupported;
  }
  *memory = new CUexternalMemory_st{base, size_t(desc->size), desc->handle.fd};  // the fd is ours now
  return cudaSuccess;
}

cudaError_t cudaExternalMemoryGetMappedBuffer(void** pointer, cudaExternalMemory_t memory,
                                              const cudaExternalMemoryBufferDesc* desc) {
  if (!pointer || !memory || !desc || desc->offset > memory->size || desc->size > memory->size - desc->offset)
    return cudaErrorInvalidValue;
  *pointer = static_cast<char*>(memory->base) + desc->offset;
  cuda_cpu::register_external(*pointer, desc->size);  // released by cudaFree, as CUDA's
  return cudaSuccess;
}

cudaError_t cudaDestroyExternalMemory(cudaExternalMemory_t memory) {
  if (!memory) return cudaErrorInvalidResourceHandle;
  cuda_cpu::run_all();
  munmap(memory->base, memory->size);
  close(memory->fd);
  delete memory;
  return cudaSuccess;
}

cudaError_t cudaImportExternalSemaphore(cudaExternalSemaphore_t*, const cudaExternalSemaphoreHandleDesc* desc) {
  if (desc && desc->type == cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd) close(desc->handle.fd);
  std::fprintf(stderr, "cuda_cpu: cudaImportExternalSemaphore: semaphore fds are not supported by the CPU execution layer\n");
  return cudaErrorNotSupported;
}
cudaError_t cudaDestroyExternalSemaphore(cudaExternalSemaphore_t) { return cudaErrorInvalidResourceHandle; }
cudaError_t cudaSignalExternalSemaphoresAsync(const cudaExternalSemaphore_t*, const cudaExternalSemaphoreSignalParams*,
                                              unsigned, cudaStream_t) {
  return cudaErrorInvalidResourceHandle;
}
cudaError_t cudaWaitExternalSemaphoresAsync(const cudaExternalSemaphore_t*, const cudaExternalSemaphoreWaitParams*,
                                            unsigned, cudaStream_t) {
  return cudaErrorInvalidResourceHandle;
}
