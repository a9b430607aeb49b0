// The CUDA runtime API on the host: errors, the one device, memory, copies, streams, events.
// External memory and semaphores are in interop.cpp.
#include <tbb/info.h>

#include <cstdio>
#include <algorithm>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "cuda_cpu/control.h"
#include "cuda_cpu/kernel_launch.h"
#include "cuda_cpu/runtime_api.h"
#include "device_identity.h"
#include "grid_run.h"
#include "memory.h"
#include "report.h"
#include "streams.h"

namespace {

thread_local cudaError_t last_error = cudaSuccess;

// Records a failure for cudaGetLastError (as the runtime does) and returns it.
cudaError_t fail(cudaError_t error) {
  last_error = error;
  return error;
}

std::string where_text(const std::source_location& where) {
  return std::string(where.file_name()) + ":" + std::to_string(where.line());
}

const char* kind_name(cudaMemcpyKind kind) {
  switch (kind) {
    case cudaMemcpyHostToHost: return "HostToHost";
    case cudaMemcpyHostToDevice: return "HostToDevice";
    case cudaMemcpyDeviceToHost: return "DeviceToHost";
    case cudaMemcpyDeviceToDevice: return "DeviceToDevice";
    case cudaMemcpyDefault: return "Default";
  }
  return "?";
}

// The registry's verdict on a copy: "" when both ends are what `kind` says and in bounds.
std::string copy_problem(void* to, const void* from, size_t bytes, cudaMemcpyKind kind) {
  if (kind > cudaMemcpyDefault) return "unknown copy kind";
  // Default: whatever the pointers are (unified addressing).
  const bool device_from = kind == cudaMemcpyDefault ? cuda_cpu::is_device_pointer(from)
                                                     : kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
  const bool device_to = kind == cudaMemcpyDefault ? cuda_cpu::is_device_pointer(to)
                                                   : kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
  if (device_from) {
    if (std::string p = cuda_cpu::device_range_problem(from, bytes); !p.empty()) return "source: " + p;
  } else if (cuda_cpu::is_device_pointer(from)) {
    return "the source is device memory but the kind says host";
  }
  if (device_to) {
    if (std::string p = cuda_cpu::device_range_problem(to, bytes); !p.empty()) return "destination: " + p;
  } else if (cuda_cpu::is_device_pointer(to)) {
    return "the destination is device memory but the kind says host";
  }
  return "";
}

cudaError_t checked_copy(void* to, const void* from, size_t bytes, cudaMemcpyKind kind, cudaStream_t stream, bool wait,
                         const std::source_location& where) {
  if (bytes == 0) return cudaSuccess;
  if (!cuda_cpu::known_stream(stream)) return fail(cudaErrorInvalidResourceHandle);
  if (std::string problem = copy_problem(to, from, bytes, kind); !problem.empty()) {
    std::fprintf(stderr, "cuda_cpu: cudaMemcpy%s(%s) at %s: %s\n", wait ? "" : "Async", kind_name(kind),
                 where_text(where).c_str(), problem.c_str());
    return fail(kind > cudaMemcpyDefault ? cudaErrorInvalidMemcpyDirection : cudaErrorInvalidValue);
  }
  const std::string what = "cudaMemcpy at " + where_text(where);
  cuda_cpu::Position at;
  if (kind == cudaMemcpyHostToDevice && !wait) {
    // Pageable host memory is staged at the call, so the caller may reuse it at once.
    std::vector<char> staged(static_cast<const char*>(from), static_cast<const char*>(from) + bytes);
    at = cuda_cpu::enqueue(stream, what, [to, staged = std::move(staged)] { std::memcpy(to, staged.data(), staged.size()); });
  } else {
    at = cuda_cpu::enqueue(stream, what, [to, from, bytes] { std::memmove(to, from, bytes); });
  }
  if (wait) cuda_cpu::run_until(at);
  return cudaSuccess;
}

cudaError_t checked_memset(void* to, int value, size_t bytes, cudaStream_t stream, bool async, const std::source_location& where) {
  if (bytes == 0) return cudaSuccess;
  if (!cuda_cpu::known_stream(stream)) return fail(cudaErrorInvalidResourceHandle);
  if (std::string problem = cuda_cpu::device_range_problem(to, bytes); !problem.empty()) {
    std::fprintf(stderr, "cuda_cpu: cudaMemset%s at %s: %s\n", async ? "Async" : "", where_text(where).c_str(), problem.c_str());
    return fail(cudaErrorInvalidValue);
  }
  cuda_cpu::enqueue(stream, "cudaMemset at " + where_text(where), [to, value, bytes] { std::memset(to, value, bytes); });
  return cudaSuccess;
}

}  // namespace

namespace cuda_cpu {

void enqueue_kernel(std::string_view signature, dim3 grid, dim3 block, size_t shared_bytes, cudaStream_t stream,
                    std::function<void()> thread) {
  const uint64_t threads = uint64_t(block.x) * block.y * block.z;
  const bool fits = grid.x && grid.y && grid.z && threads && threads <= 1024 && block.z <= 64 && grid.x < (1u << 31) &&
                    grid.y < 65536 && grid.z < 65536;
  // Dynamic shared memory (extern __shared__) has no stand-in; no kernel of the project uses it.
  if (!fits || shared_bytes != 0) {
    fail(cudaErrorInvalidConfiguration);
    return;
  }
  if (!known_stream(stream)) {
    fail(cudaErrorInvalidResourceHandle);
    return;
  }
  auto launch = std::make_shared<GridLaunch>();
  launch->name = kernel_name_of(signature);
  launch->grid = grid;
  launch->block = block;
  launch->schedule = schedule();
  auto body = std::make_shared<std::function<void()>>(std::move(thread));
  const std::string what = "kernel " + launch->name;
  enqueue(stream, what, [launch, body] {
    launch->thread = body.get();
    run_grid(*launch);
  });
}

}  // namespace cuda_cpu

const char* cudaGetErrorName(cudaError_t error) {
  switch (error) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorInitializationError: return "cudaErrorInitializationError";
    case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
    case cudaErrorInvalidDevicePointer: return "cudaErrorInvalidDevicePointer";
    case cudaErrorInvalidMemcpyDirection: return "cudaErrorInvalidMemcpyDirection";
    case cudaErrorInsufficientDriver: return "cudaErrorInsufficientDriver";
    case cudaErrorNoDevice: return "cudaErrorNoDevice";
    case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
    case cudaErrorInvalidResourceHandle: return "cudaErrorInvalidResourceHandle";
    case cudaErrorNotReady: return "cudaErrorNotReady";
    case cudaErrorIllegalAddress: return "cudaErrorIllegalAddress";
    case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
    case cudaErrorNotSupported: return "cudaErrorNotSupported";
    case cudaErrorUnknown: return "cudaErrorUnknown";
  }
  return "cudaErrorUnknown";
}

const char* cudaGetErrorString(cudaError_t error) {
  switch (error) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidDevicePointer: return "invalid device pointer";
    case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorNotReady: return "device not ready";
    case cudaErrorNotSupported: return "operation not supported";
    default: return cudaGetErrorName(error);
  }
}

cudaError_t cudaGetLastError() {
  const cudaError_t error = last_error;
  last_error = cudaSuccess;
  return error;
}
cudaError_t cudaPeekAtLastError() { return last_error; }

cudaError_t cudaGetDeviceCount(int* count) {
  if (!count) return fail(cudaErrorInvalidValue);
  *count = 1;
  return cudaSuccess;
}
cudaError_t cudaGetDevice(int* device) {
  if (!device) return fail(cudaErrorInvalidValue);
  *device = 0;
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int device) { return device == 0 ? cudaSuccess : fail(cudaErrorInvalidDevice); }

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* p, int device) {
  if (!p) return fail(cudaErrorInvalidValue);
  if (device != 0) return fail(cudaErrorInvalidDevice);
  std::memset(p, 0, sizeof *p);
  const cuda_cpu::DeviceIdentity& identity = cuda_cpu::device_identity();
  std::snprintf(p->name, sizeof p->name, "%s", identity.name.c_str());
  std::memcpy(p->uuid.bytes, identity.uuid.data(), 16);
  p->totalGlobalMem = cuda_cpu::memory_limit();
  p->sharedMemPerBlock = 48 << 10;
  p->warpSize = 32;
  p->maxThreadsPerBlock = 1024;
  p->maxThreadsDim[0] = p->maxThreadsDim[1] = 1024;
  p->maxThreadsDim[2] = 64;
  p->maxGridSize[0] = 0x7FFFFFFF;
  p->maxGridSize[1] = p->maxGridSize[2] = 65535;
  p->multiProcessorCount = tbb::info::default_concurrency();
  p->major = 9;
  p->minor = 0;
  return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize() {
  cuda_cpu::run_all();
  return cudaSuccess;
}

cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes) {
  if (!free_bytes || !total_bytes) return fail(cudaErrorInvalidValue);
  *total_bytes = cuda_cpu::memory_limit();
  *free_bytes = *total_bytes - std::min(*total_bytes, cuda_cpu::memory_in_use());
  return cudaSuccess;
}

cudaError_t cudaMalloc(void** pointer, size_t bytes, const std::source_location& where) {
  const cudaError_t error = cuda_cpu::allocate_device(pointer, bytes, where);
  return error == cudaSuccess ? error : fail(error);
}

cudaError_t cudaFree(void* pointer) {
  cuda_cpu::run_all();  // cudaFree synchronises the device
  const cudaError_t error = cuda_cpu::free_device(pointer);
  return error == cudaSuccess ? error : fail(error);
}

cudaError_t cudaMallocHost(void** pointer, size_t bytes) {
  if (!pointer) return fail(cudaErrorInvalidValue);
  *pointer = ::operator new(std::max<size_t>(bytes, 1), std::nothrow);
  return *pointer ? cudaSuccess : fail(cudaErrorMemoryAllocation);
}

cudaError_t cudaFreeHost(void* pointer) {
  cuda_cpu::run_all();  // as cudaFree, it synchronises the device
  ::operator delete(pointer);
  return cudaSuccess;
}

cudaError_t cudaMemcpy(void* to, const void* from, size_t bytes, cudaMemcpyKind kind, const std::source_location& where) {
  return checked_copy(to, from, bytes, kind, nullptr, /*wait=*/true, where);
}
cudaError_t cudaMemcpyAsync(void* to, const void* from, size_t bytes, cudaMemcpyKind kind, cudaStream_t stream,
                            const std::source_location& where) {
  return checked_copy(to, from, bytes, kind, stream, /*wait=*/false, where);
}
cudaError_t cudaMemset(void* to, int value, size_t bytes, const std::source_location& where) {
  return checked_memset(to, value, bytes, nullptr, false, where);
}
cudaError_t cudaMemsetAsync(void* to, int value, size_t bytes, cudaStream_t stream, const std::source_location& where) {
  return checked_memset(to, value, bytes, stream, true, where);
}

cudaError_t cudaStreamCreate(cudaStream_t* stream) { return cudaStreamCreateWithFlags(stream, cudaStreamDefault); }
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned flags) {
  if (!stream || flags > cudaStreamNonBlocking) return fail(cudaErrorInvalidValue);
  *stream = cuda_cpu::create_stream(!(flags & cudaStreamNonBlocking));
  return cudaSuccess;
}
cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  if (!stream || !cuda_cpu::known_stream(stream)) return fail(cudaErrorInvalidResourceHandle);
  cuda_cpu::destroy_stream(stream);
  return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  if (!cuda_cpu::known_stream(stream)) return fail(cudaErrorInvalidResourceHandle);
  cuda_cpu::run_stream(stream);
  return cudaSuccess;
}
cudaError_t cudaStreamQuery(cudaStream_t stream) {
  if (!cuda_cpu::known_stream(stream)) return fail(cudaErrorInvalidResourceHandle);
  return cuda_cpu::stream_idle(stream) ? cudaSuccess : cudaErrorNotReady;
}
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t function, void* user_data) {
  if (!function) return fail(cudaErrorInvalidValue);
  if (!cuda_cpu::known_stream(stream)) return fail(cudaErrorInvalidResourceHandle);
  cuda_cpu::enqueue(stream, "host function", [function, user_data] { function(user_data); });
  return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t* event) {
  if (!event) return fail(cudaErrorInvalidValue);
  *event = new CUevent_st;
  return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t event) {
  if (!event) return fail(cudaErrorInvalidResourceHandle);
  if (event->recorded.stream && !event->done) cuda_cpu::run_until(event->recorded, false);  // its record op points here
  delete event;
  return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  if (!event) return fail(cudaErrorInvalidResourceHandle);
  if (!cuda_cpu::known_stream(stream)) return fail(cudaErrorInvalidResourceHandle);
  if (event->recorded.stream && !event->done) cuda_cpu::run_until(event->recorded, false);
  event->done = false;
  event->recorded = cuda_cpu::enqueue(stream, "cudaEventRecord", [event] {
    event->when = std::chrono::steady_clock::now();
    event->done = true;
  });
  return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  if (!event) return fail(cudaErrorInvalidResourceHandle);
  if (event->recorded.stream) cuda_cpu::run_until(event->recorded);
  return cudaSuccess;
}
cudaError_t cudaEventQuery(cudaEvent_t event) {
  if (!event) return fail(cudaErrorInvalidResourceHandle);
  return !event->recorded.stream || event->done ? cudaSuccess : cudaErrorNotReady;
}
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  if (!ms || !start || !end) return fail(cudaErrorInvalidValue);
  if (!start->recorded.stream || !end->recorded.stream) return fail(cudaErrorInvalidResourceHandle);
  if (!start->done || !end->done) return fail(cudaErrorNotReady);
  *ms = std::chrono::duration<float, std::milli>(end->when - start->when).count();
  return cudaSuccess;
}
