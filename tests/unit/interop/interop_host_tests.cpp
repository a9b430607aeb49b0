// The host path of the interop layer, on whatever Vulkan device answers (lavapipe here).
#include <catch2/catch.hpp>

#include <cstring>
#include <numeric>
#include <vector>

#include "engine/core/buffer.h"
#include "engine/core/commands.h"
#include "engine/core/context.h"
#include "engine/core/error.h"
#include "engine/interop/cuda_device.h"
#include "engine/interop/shared_buffer.h"
#include "engine/interop/timeline.h"
#include "sim/common/backend.h"

namespace meniscus {

TEST_CASE("a host shared buffer written by the CPU is what the GPU copies", "[interop]") {
  Context context(ContextOptions{.validation = true});
  constexpr size_t kCount = 4096;
  SharedBuffer shared(context, kCount * sizeof(uint32_t), SharedMemory::Host, "test.shared");
  REQUIRE(shared.host_pointer() != nullptr);
  CHECK(shared.cuda_pointer() == nullptr);
  std::vector<uint32_t> pattern(kCount);
  std::iota(pattern.begin(), pattern.end(), 0xC0FFEE00u);
  std::memcpy(shared.host_pointer(), pattern.data(), shared.size());

  Buffer readback(context, shared.size(), VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::Readback, "test.readback");
  submit_and_wait(context, [&](VkCommandBuffer cmd) {
    VkBufferCopy region{0, 0, shared.size()};
    vkCmdCopyBuffer(cmd, shared.buffer(), readback.handle(), 1, &region);
    VkMemoryBarrier2 barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
    barrier.srcStageMask = VK_PIPELINE_STAGE_2_COPY_BIT;
    barrier.srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT;
    barrier.dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT;
    barrier.dstAccessMask = VK_ACCESS_2_HOST_READ_BIT;
    VkDependencyInfo dependency{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dependency.memoryBarrierCount = 1;
    dependency.pMemoryBarriers = &barrier;
    vkCmdPipelineBarrier2(cmd, &dependency);
  });
  readback.invalidate();
  CHECK(std::memcmp(readback.mapped(), pattern.data(), shared.size()) == 0);
  CHECK(context.validation_error_count() == 0);
}

TEST_CASE("timeline semaphore: host signal, wait and value; values must increase", "[interop]") {
  Context context(ContextOptions{.validation = true});
  TimelineSemaphore timeline(context, false, 5);
  CHECK(timeline.value() == 5);
  timeline.signal(7);
  timeline.wait(7);
  CHECK(timeline.value() == 7);
  CHECK_THROWS_AS(timeline.signal(7), DeviceError);
  CHECK_THROWS_AS(timeline.signal(3), DeviceError);
  CHECK(context.validation_error_count() == 0);
}

TEST_CASE("a GPU submission waits on the timeline before it runs", "[interop]") {
  // The frame's submit waits on "written" = 1; the host signals it afterwards. The copy must not
  // have happened before the signal.
  Context context(ContextOptions{.validation = true});
  TimelineSemaphore timeline(context, false, 0);
  SharedBuffer shared(context, 256, SharedMemory::Host, "test.shared");
  Buffer readback(context, 256, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::Readback, "test.readback");
  std::memset(readback.mapped(), 0, 256);

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
  VkBufferCopy region{0, 0, 256};
  vkCmdCopyBuffer(cmd, shared.buffer(), readback.handle(), 1, &region);
  VK_CHECK(vkEndCommandBuffer(cmd));

  VkSemaphoreSubmitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
  wait.semaphore = timeline.handle();
  wait.value = 1;
  wait.stageMask = VK_PIPELINE_STAGE_2_COPY_BIT;
  VkSemaphoreSubmitInfo done{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
  done.semaphore = timeline.handle();
  done.value = 2;
  done.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
  VkCommandBufferSubmitInfo cmd_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
  cmd_info.commandBuffer = cmd;
  VkSubmitInfo2 submit{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
  submit.waitSemaphoreInfoCount = 1;
  submit.pWaitSemaphoreInfos = &wait;
  submit.commandBufferInfoCount = 1;
  submit.pCommandBufferInfos = &cmd_info;
  submit.signalSemaphoreInfoCount = 1;
  submit.pSignalSemaphoreInfos = &done;
  VK_CHECK(vkQueueSubmit2(context.queue(), 1, &submit, VK_NULL_HANDLE));

  CHECK(timeline.value() == 0);  // blocked on the wait
  std::memset(shared.host_pointer(), 0xAB, 256);
  timeline.signal(1);
  timeline.wait(2);
  readback.invalidate();
  CHECK(static_cast<const uint8_t*>(readback.mapped())[0] == 0xAB);
  CHECK(static_cast<const uint8_t*>(readback.mapped())[255] == 0xAB);
  vkDestroyCommandPool(context.device(), pool, nullptr);
  CHECK(context.validation_error_count() == 0);
}

TEST_CASE("backend choice: cpu always works, auto falls back, cuda says why it cannot", "[interop]") {
  Context context(ContextOptions{});
  CHECK(sim::resolve_backend("cpu", context.info()) == sim::SimBackend::Cpu);
  std::string why;
  if (!find_cuda_device(context.info(), &why)) {
    CHECK_FALSE(why.empty());
    CHECK(sim::resolve_backend("auto", context.info()) == sim::SimBackend::Cpu);
    CHECK_THROWS_AS(sim::resolve_backend("cuda", context.info()), DeviceError);
    CHECK_THROWS_AS(SharedBuffer(context, 64, SharedMemory::Cuda), DeviceError);
  }
  CHECK_THROWS_AS(sim::resolve_backend("gpu", context.info()), InputError);
}

}  // namespace meniscus
