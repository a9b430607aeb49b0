#pragma once
// The CUDA runtime API the project calls, implemented on the host (src/runtime_api.cpp):
// device memory in a checked registry, streams that run their work in CUDA's order when the
// host synchronises, events, external memory imported by mapping the fd. Declarations follow
// cuda_runtime_api.h so the same calls compile unchanged.
#include <cstddef>
#include <cstdint>
#include <source_location>

enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorInsufficientDriver = 35,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorNotReady = 600,
  cudaErrorIllegalAddress = 700,
  cudaErrorLaunchFailure = 719,
  cudaErrorNotSupported = 801,
  cudaErrorUnknown = 999,
};
typedef enum cudaError cudaError_t;

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4,
};

struct CUstream_st;
struct CUevent_st;
struct CUexternalMemory_st;
struct CUexternalSemaphore_st;
typedef CUstream_st* cudaStream_t;
typedef CUevent_st* cudaEvent_t;
typedef CUexternalMemory_st* cudaExternalMemory_t;
typedef CUexternalSemaphore_st* cudaExternalSemaphore_t;
#define CUDART_CB
typedef void (*cudaHostFn_t)(void* user_data);

constexpr unsigned cudaStreamDefault = 0x0;
constexpr unsigned cudaStreamNonBlocking = 0x1;

struct cudaUUID_t {
  char bytes[16];
};

struct cudaDeviceProp {
  char name[256];
  cudaUUID_t uuid;
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int warpSize;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int multiProcessorCount;
  int major;
  int minor;
};

enum cudaExternalMemoryHandleType {
  cudaExternalMemoryHandleTypeOpaqueFd = 1,
};
constexpr unsigned cudaExternalMemoryDedicated = 0x1;
struct cudaExternalMemoryHandleDesc {
  cudaExternalMemoryHandleType type;
  union {
    int fd;
    struct {
      void* handle;
      const void* name;
    } win32;
    const void* nvSciBufObject;
  } handle;
  unsigned long long size;
  unsigned int flags;
};
struct cudaExternalMemoryBufferDesc {
  unsigned long long offset;
  unsigned long long size;
  unsigned int flags;
};

enum cudaExternalSemaphoreHandleType {
  cudaExternalSemaphoreHandleTypeOpaqueFd = 1,
  cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd = 9,
};
struct cudaExternalSemaphoreHandleDesc {
  cudaExternalSemaphoreHandleType type;
  union {
    int fd;
    struct {
      void* handle;
      const void* name;
    } win32;
    const void* nvSciSyncObj;
  } handle;
  unsigned int flags;
};
struct cudaExternalSemaphoreSignalParams {
  struct {
    struct {
      unsigned long long value;
    } fence;
  } params;
  unsigned int flags;
};
struct cudaExternalSemaphoreWaitParams {
  struct {
    struct {
      unsigned long long value;
    } fence;
  } params;
  unsigned int flags;
};

const char* cudaGetErrorName(cudaError_t error);
const char* cudaGetErrorString(cudaError_t error);
cudaError_t cudaGetLastError();
cudaError_t cudaPeekAtLastError();

cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* properties, int device);
cudaError_t cudaDeviceSynchronize();
cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes);

cudaError_t cudaMalloc(void** pointer, size_t bytes, const std::source_location& where = std::source_location::current());
template <class T>
cudaError_t cudaMalloc(T** pointer, size_t bytes, const std::source_location& where = std::source_location::current()) {
  return cudaMalloc(reinterpret_cast<void**>(pointer), bytes, where);
}
cudaError_t cudaFree(void* pointer);
// Page-locked host memory is plain host memory here: the device is the host.
cudaError_t cudaMallocHost(void** pointer, size_t bytes);
cudaError_t cudaFreeHost(void* pointer);
cudaError_t cudaMemcpy(void* to, const void* from, size_t bytes, cudaMemcpyKind kind,
                       const std::source_location& where = std::source_location::current());
cudaError_t cudaMemcpyAsync(void* to, const void* from, size_t bytes, cudaMemcpyKind kind, cudaStream_t stream = nullptr,
                            const std::source_location& where = std::source_location::current());
cudaError_t cudaMemset(void* to, int value, size_t bytes, const std::source_location& where = std::source_location::current());
cudaError_t cudaMemsetAsync(void* to, int value, size_t bytes, cudaStream_t stream = nullptr,
                            const std::source_location& where = std::source_location::current());

cudaError_t cudaStreamCreate(cudaStream_t* stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned flags);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t function, void* user_data);

cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = nullptr);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);

cudaError_t cudaImportExternalMemory(cudaExternalMemory_t* memory, const cudaExternalMemoryHandleDesc* desc);
cudaError_t cudaExternalMemoryGetMappedBuffer(void** pointer, cudaExternalMemory_t memory,
                                              const cudaExternalMemoryBufferDesc* desc);
cudaError_t cudaDestroyExternalMemory(cudaExternalMemory_t memory);
cudaError_t cudaImportExternalSemaphore(cudaExternalSemaphore_t* semaphore, const cudaExternalSemaphoreHandleDesc* desc);
cudaError_t cudaDestroyExternalSemaphore(cudaExternalSemaphore_t semaphore);
cudaError_t cudaSignalExternalSemaphoresAsync(const cudaExternalSemaphore_t* semaphores,
                                              const cudaExternalSemaphoreSignalParams* params, unsigned count,
                                              cudaStream_t stream = nullptr);
cudaError_t cudaWaitExternalSemaphoresAsync(const cudaExternalSemaphore_t* semaphores,
                                            const cudaExternalSemaphoreWaitParams* params, unsigned count,
                                            cudaStream_t stream = nullptr);
