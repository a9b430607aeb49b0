// External memory as the CPU execution layer imports it: the exported fd is mapped (lavapipe
// exports its memory as a memfd), so a kernel here writes the very bytes Vulkan reads. Timeline
// semaphores cannot be exported by lavapipe at all; the engine orders CUDA and Vulkan through
// host functions on the stream then (engine/interop/timeline.cpp), so no semaphore fd ever
// arrives here.
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cstdint>

#include "cuda_cpu/runtime_api.h"
#include "memory.h"
#include "streams.h"

struct CUexternalMemory_st {
  void* mapping = nullptr;
  size_t mapped = 0;
  size_t offset = 0;  // where the memory starts in the mapping
  size_t size = 0;    // what was imported
  int fd = -1;
};

namespace {

// Mesa's exportable memory (os_malloc_aligned_fd, which lavapipe uses) starts with a header,
// {size_t size; size_t offset; char driver_id[40]}, and the memory the driver binds begins at
// `offset`. The header is recognised by its size matching the file's; anything else maps from 0.
size_t memory_offset(int fd, const void* mapped, size_t mapped_size) {
  struct stat file{};
  if (fstat(fd, &file) != 0 || mapped_size < 2 * sizeof(uint64_t)) return 0;
  uint64_t header[2];
  std::memcpy(header, mapped, sizeof header);
  const bool mesa = header[0] == uint64_t(file.st_size) && header[1] >= 2 * sizeof(uint64_t) && header[1] < header[0];
  return mesa ? size_t(header[1]) : 0;
}

}  // namespace

cudaError_t cudaImportExternalMemory(cudaExternalMemory_t* memory, const cudaExternalMemoryHandleDesc* desc) {
  if (!memory || !desc || desc->type != cudaExternalMemoryHandleTypeOpaqueFd || desc->size == 0) return cudaErrorInvalidValue;
  struct stat file{};
  if (fstat(desc->handle.fd, &file) != 0) return cudaErrorInvalidValue;
  const size_t file_size = std::max<size_t>(size_t(file.st_size), size_t(desc->size));
  void* base = mmap(nullptr, file_size, PROT_READ | PROT_WRITE, MAP_SHARED, desc->handle.fd, 0);
  if (base == MAP_FAILED) {
    std::fprintf(stderr, "cuda_cpu: cudaImportExternalMemory: the fd cannot be mapped (%s)\n", std::strerror(errno));
    return cudaErrorNotSupported;
  }
  const size_t offset = memory_offset(desc->handle.fd, base, file_size);
  if (offset + desc->size > file_size) {
    munmap(base, file_size);
    std::fprintf(stderr, "cuda_cpu: cudaImportExternalMemory: the fd holds less than the %llu bytes asked for\n",
                 desc->size);
    return cudaErrorInvalidValue;
  }
  // The fd is ours now, as CUDA's.
  *memory = new CUexternalMemory_st{base, file_size, offset, size_t(desc->size), desc->handle.fd};
  return cudaSuccess;
}

cudaError_t cudaExternalMemoryGetMappedBuffer(void** pointer, cudaExternalMemory_t memory,
                                              const cudaExternalMemoryBufferDesc* desc) {
  if (!pointer || !memory || !desc || desc->offset > memory->size || desc->size > memory->size - desc->offset)
    return cudaErrorInvalidValue;
  *pointer = static_cast<char*>(memory->mapping) + memory->offset + desc->offset;
  cuda_cpu::register_external(*pointer, desc->size);  // released by cudaFree, as CUDA's
  return cudaSuccess;
}

cudaError_t cudaDestroyExternalMemory(cudaExternalMemory_t memory) {
  if (!memory) return cudaErrorInvalidResourceHandle;
  cuda_cpu::run_all();
  munmap(memory->mapping, memory->mapped);
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
