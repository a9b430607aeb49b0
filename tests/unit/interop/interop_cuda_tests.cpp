// CUDA <-> Vulkan interop on a real NVIDIA device: the CUDA device is the Vulkan device (UUID),
// memory written by CUDA is what Vulkan reads and the other way round, each direction ordered
// by the one shared timeline semaphore.
// Exits with MENISCUS_SKIP_CODE (ctest: skipped) and says why when no CUDA device answers.
#include <cstdio>
#include <cstring>
#include <string>

#include "engine/core/buffer.h"
#include "engine/core/context.h"
#include "engine/core/error.h"
#include "engine/interop/cuda_device.h"
#include "engine/interop/shared_buffer.h"
#include "engine/interop/timeline.h"
#include "tests/support/device_checks.h"
#include "tests/unit/interop/timeline_submit.h"

#if MENISCUS_HAS_CUDA
#include <cuda_runtime.h>
#endif

namespace meniscus {
namespace {

using device_test::check;

#if MENISCUS_HAS_CUDA
void cuda_check(cudaError_t error, const char* what) {
  if (error != cudaSuccess) throw DeviceError(std::string(what) + ": " + cudaGetErrorString(error));
}

void run_cuda(const Context& context, int device) {
  // 1. The device find_cuda_device chose is the Vulkan device.
  cudaDeviceProp properties{};
  cuda_check(cudaGetDeviceProperties(&properties, device), "cudaGetDeviceProperties");
  check(std::memcmp(properties.uuid.bytes, context.info().uuid.data(), VK_UUID_SIZE) == 0,
        std::string("CUDA device ") + properties.name + " has the UUID of Vulkan device " + context.info().name);
  int current = -1;
  cuda_check(cudaGetDevice(&current), "cudaGetDevice");
  check(current == device, "find_cuda_device made the matching device current");

  constexpr size_t kWords = (1 << 20) + 3;  // not a multiple of any page size
  SharedBuffer shared(context, kWords * sizeof(uint32_t), SharedMemory::Cuda, "test.cuda_shared");
  check(shared.cuda_pointer() != nullptr && shared.host_pointer() == nullptr, "CUDA kind: a CUDA pointer, no host one");
  check(shared.allocation_size() >= shared.size(), "dedicated allocation covers the buffer");
  TimelineSemaphore timeline(context, true, 0);
  check(timeline.cuda_shared(), "timeline imported into CUDA");
  Buffer readback(context, shared.size(), VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::Readback, "test.readback");
  std::memset(readback.mapped(), 0, readback.size());
  cudaStream_t stream = nullptr;
  cuda_check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");

  // 2. CUDA writes, Vulkan reads. The Vulkan copy is submitted first, waiting for "written" = 1
  //    and signalling "done reading" = 2; only then does CUDA write and signal 1.
  // Pinned host memory: an async copy to or from pageable memory may block the host until it
  // is done, and these copies wait for the other API's signal.
  uint32_t* pattern = nullptr;
  uint32_t* seen = nullptr;
  cuda_check(cudaMallocHost(&pattern, shared.size()), "cudaMallocHost");
  cuda_check(cudaMallocHost(&seen, shared.size()), "cudaMallocHost");
  std::memset(seen, 0, shared.size());
  for (size_t i = 0; i < kWords; ++i) pattern[i] = uint32_t(i * 2654435761u) ^ 0x5EED;
  {
    test::TimelineSubmit copy(
        context,
        [&](VkCommandBuffer cmd) { test::record_copy_to_host(cmd, shared.buffer(), readback.handle(), shared.size()); },
        timeline.handle(), 1, 2);
    check(!timeline.wait_for(2, 20'000'000), "Vulkan copy waits for CUDA's signal");
    cuda_check(cudaMemcpyAsync(shared.cuda_pointer(), pattern, shared.size(), cudaMemcpyHostToDevice, stream),
               "cudaMemcpyAsync H2D");
    timeline.cuda_signal(1, stream);
    timeline.wait(2);
    copy.finish();
  }
  readback.invalidate();
  check(std::memcmp(readback.mapped(), pattern, shared.size()) == 0, "CUDA-written shared buffer read by Vulkan");

  // 3. Vulkan writes, CUDA reads. CUDA's stream is queued first: wait for 3, copy out, signal 4.
  timeline.cuda_wait(3, stream);
  cuda_check(cudaMemcpyAsync(seen, shared.cuda_pointer(), shared.size(), cudaMemcpyDeviceToHost, stream),
             "cudaMemcpyAsync D2H");
  timeline.cuda_signal(4, stream);
  check(cudaStreamQuery(stream) == cudaErrorNotReady, "CUDA stream waits for Vulkan's signal");
  {
    test::TimelineSubmit fill(
        context,
        [&](VkCommandBuffer cmd) { vkCmdFillBuffer(cmd, shared.buffer(), 0, shared.size(), 0xA5A5A5A5u); },
        timeline.handle(), 2, 3);
    timeline.wait(4);
    fill.finish();
  }
  cuda_check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  bool all = true;
  for (size_t i = 0; i < kWords; ++i) all = all && seen[i] == 0xA5A5A5A5u;
  check(all, "Vulkan-written shared buffer read by CUDA after the timeline wait");

  // 4. Values must increase on the CUDA side too.
  bool refused = false;
  try {
    timeline.cuda_signal(4, stream);
  } catch (const DeviceError&) {
    refused = true;
  }
  check(refused, "a non-increasing CUDA signal is refused");
  cuda_check(cudaStreamDestroy(stream), "cudaStreamDestroy");
  cuda_check(cudaFreeHost(pattern), "cudaFreeHost");
  cuda_check(cudaFreeHost(seen), "cudaFreeHost");
}
#endif

int run() {
  Context context(ContextOptions{.validation = true});
  std::string why;
  const auto device = find_cuda_device(context.info(), &why);
  if (!device) {
    std::printf("SKIPPED: no CUDA device (%s)\n", why.c_str());
    return MENISCUS_SKIP_CODE;
  }
#if MENISCUS_HAS_CUDA
  std::printf("Vulkan device %s = CUDA device %d\n", context.info().name.c_str(), *device);
  run_cuda(context, *device);
#else
  check(false, "find_cuda_device found a device in a build without CUDA");
#endif
  check(context.validation_error_count() == 0, "no validation errors");
  return device_test::summary();
}

}  // namespace
}  // namespace meniscus

int main() { return meniscus::device_test::run_main(meniscus::run); }
