// CUDA <-> Vulkan interop on a real NVIDIA device: memory written by CUDA is what Vulkan reads,
// ordered by the shared timeline semaphore; the ballistic stage agrees across backends.
// Exits with MENISCUS_SKIP_CODE (ctest: skipped) and says why when no CUDA device answers.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "engine/core/buffer.h"
#include "engine/core/commands.h"
#include "engine/core/context.h"
#include "engine/core/error.h"
#include "engine/interop/cuda_device.h"
#include "engine/interop/shared_buffer.h"
#include "engine/interop/timeline.h"
#include "sim/ballistic/ballistic_cpu.h"
#include "sim/ballistic/ballistic_stage.h"

#if MENISCUS_HAS_CUDA
#include <cuda_runtime.h>
#endif

namespace meniscus {
namespace {

int failures = 0;

void check(bool ok, const std::string& what) {
  std::printf("%s: %s\n", ok ? "PASS" : "FAIL", what.c_str());
  failures += ok ? 0 : 1;
}

// Submits a copy of `source` into `readback` that waits for `timeline` to reach `value`.
void copy_after(const Context& context, const SharedBuffer& source, const Buffer& readback,
                const TimelineSemaphore& timeline, uint64_t value) {
  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.queueFamilyIndex = context.queue_family();
  VkCommandPool pool;
  VK_CHECK(vkCreateCommandPool(context.device(), &pool_info, nullptr, &pool));
  VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  alloc.commandPool = pool;
  alloc.commandBufferCount = 1;
  VkCommandBuffer cmd;
  VK_CHECK(vkAllocateCommandBuffers(context.device(), &alloc, &cmd));
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  VK_CHECK(vkBeginCommandBuffer(cmd, &begin));
  VkBufferCopy region{0, 0, source.size()};
  vkCmdCopyBuffer(cmd, source.buffer(), readback.handle(), 1, &region);
  VK_CHECK(vkEndCommandBuffer(cmd));
  VkSemaphoreSubmitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
  wait.semaphore = timeline.handle();
  wait.value = value;
  wait.stageMask = VK_PIPELINE_STAGE_2_COPY_BIT;
  VkCommandBufferSubmitInfo cmd_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
  cmd_info.commandBuffer = cmd;
  VkSubmitInfo2 submit{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
  submit.waitSemaphoreInfoCount = 1;
  submit.pWaitSemaphoreInfos = &wait;
  submit.commandBufferInfoCount = 1;
  submit.pCommandBufferInfos = &cmd_info;
  VK_CHECK(vkQueueSubmit2(context.queue(), 1, &submit, VK_NULL_HANDLE));
  VK_CHECK(vkQueueWaitIdle(context.queue()));
  vkDestroyCommandPool(context.device(), pool, nullptr);
  readback.invalidate();
}

int run() {
  Context context(ContextOptions{.validation = true});
  std::string why;
  const auto device = find_cuda_device(context.info(), &why);
  if (!device) {
    std::printf("SKIPPED: no CUDA device (%s)\n", why.c_str());
    return MENISCUS_SKIP_CODE;
  }
#if MENISCUS_HAS_CUDA
  std::printf("Vulkan device %s = CUDA device %d (UUID match)\n", context.info().name.c_str(), *device);

  // 1. CUDA writes, Vulkan reads after the timeline says so.
  constexpr size_t kWords = 1 << 20;
  SharedBuffer shared(context, kWords * sizeof(uint32_t), SharedMemory::Cuda, "test.cuda_shared");
  TimelineSemaphore timeline(context, true, 0);
  std::vector<uint32_t> pattern(kWords);
  for (size_t i = 0; i < kWords; ++i) pattern[i] = uint32_t(i * 2654435761u);
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  cudaMemcpyAsync(shared.cuda_pointer(), pattern.data(), shared.size(), cudaMemcpyHostToDevice, stream);
  timeline.cuda_signal(1, stream);
  Buffer readback(context, shared.size(), VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::Readback, "test.readback");
  copy_after(context, shared, readback, timeline, 1);
  check(std::memcmp(readback.mapped(), pattern.data(), shared.size()) == 0, "CUDA-written shared buffer read by Vulkan");

  // 2. The ballistic stage: CUDA and CPU backends agree after 120 frames.
  sim::BallisticParams params;
  params.count = 100000;
  auto cpu = sim::make_ballistic_cpu(params);
  auto cuda = sim::make_ballistic_stage(params, sim::SimBackend::Cuda, context);
  SharedBuffer particles(context, params.count * sizeof(sim::Particle), SharedMemory::Cuda, "test.particles");
  for (int frame = 0; frame < 120; ++frame) {
    cpu->step(1.0 / 60.0);
    cuda->step(1.0 / 60.0);
  }
  cuda->write(particles);
  const auto wait = cuda->gpu_wait(particles);
  check(wait.has_value(), "CUDA stage reports a timeline wait");
  Buffer particle_readback(context, particles.size(), VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::Readback, "test.pr");
  // Wait through the stage's own semaphore, as the renderer does.
  {
    VkSemaphoreWaitInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
    info.semaphoreCount = 1;
    info.pSemaphores = &wait->semaphore;
    info.pValues = &wait->value;
    VK_CHECK(vkWaitSemaphores(context.device(), &info, UINT64_MAX));
  }
  submit_and_wait(context, [&](VkCommandBuffer cmd) {
    VkBufferCopy region{0, 0, particles.size()};
    vkCmdCopyBuffer(cmd, particles.buffer(), particle_readback.handle(), 1, &region);
  });
  particle_readback.invalidate();
  const auto* gpu = static_cast<const sim::Particle*>(particle_readback.mapped());
  const auto reference = static_cast<sim::BallisticCpu&>(*cpu).particles();
  size_t close = 0;
  double mean_cpu = 0, mean_gpu = 0;
  for (size_t i = 0; i < reference.size(); ++i) {
    double d = 0;
    for (int k = 0; k < 3; ++k) d = std::max(d, double(std::abs(reference[i].position[k] - gpu[i].position[k])));
    close += d < 1e-3;
    mean_cpu += reference[i].position[1];
    mean_gpu += gpu[i].position[1];
  }
  mean_cpu /= reference.size();
  mean_gpu /= reference.size();
  std::printf("ballistic CPU vs CUDA: %zu of %zu particles within 1 mm, mean height %.6f vs %.6f\n", close,
              reference.size(), mean_cpu, mean_gpu);
  check(close >= reference.size() * 999 / 1000, "99.9% of particles agree within 1 mm");
  check(std::abs(mean_cpu - mean_gpu) < 1e-3, "mean height agrees within 1 mm");
  cudaStreamDestroy(stream);
  check(context.validation_error_count() == 0, "no validation errors");
#endif
  std::printf("%d failed\n", failures);
  return failures == 0 ? 0 : 1;
}

}  // namespace
}  // namespace meniscus

int main() {
  try {
    return meniscus::run();
  } catch (const std::exception& error) {
    std::printf("FAIL: %s\n", error.what());
    return 1;
  }
}
