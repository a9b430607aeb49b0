#pragma once
// Test support: one-off queue submissions that wait on and signal timeline values, the way a
// frame's submission orders itself against a simulation stage. Header-only; used by the interop
// tests and the ballistic CUDA tests.
#include <cstdint>
#include <functional>

#include <vulkan/vulkan.h>

#include "engine/core/context.h"
#include "engine/core/error.h"

namespace meniscus::test {

// A recorded command buffer submitted with an optional timeline wait (value 0 = none) and an
// optional timeline signal; finish() waits for the queue and frees the command pool.
class TimelineSubmit {
 public:
  TimelineSubmit(const Context& context, const std::function<void(VkCommandBuffer)>& record, VkSemaphore timeline,
                 uint64_t wait_value, uint64_t signal_value)
      : context_(context), timeline_(timeline), signal_value_(signal_value) {
    VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pool_info.queueFamilyIndex = context.queue_family();
    VK_CHECK(vkCreateCommandPool(context.device(), &pool_info, nullptr, &pool_));
    VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    alloc.commandPool = pool_;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VK_CHECK(vkAllocateCommandBuffers(context.device(), &alloc, &cmd));
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VK_CHECK(vkBeginCommandBuffer(cmd, &begin));
    record(cmd);
    VK_CHECK(vkEndCommandBuffer(cmd));

    VkSemaphoreSubmitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
    wait.semaphore = timeline;
    wait.value = wait_value;
    wait.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    VkSemaphoreSubmitInfo signal{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
    signal.semaphore = timeline;
    signal.value = signal_value;
    signal.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    VkCommandBufferSubmitInfo cmd_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
    cmd_info.commandBuffer = cmd;
    VkSubmitInfo2 submit{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
    submit.waitSemaphoreInfoCount = wait_value ? 1 : 0;
    submit.pWaitSemaphoreInfos = &wait;
    submit.commandBufferInfoCount = 1;
    submit.pCommandBufferInfos = &cmd_info;
    submit.signalSemaphoreInfoCount = signal_value ? 1 : 0;
    submit.pSignalSemaphoreInfos = &signal;
    VK_CHECK(vkQueueSubmit2(context.queue(), 1, &submit, VK_NULL_HANDLE));
  }
  ~TimelineSubmit() { finish(); }
  TimelineSubmit(const TimelineSubmit&) = delete;
  TimelineSubmit& operator=(const TimelineSubmit&) = delete;

  void finish() {
    if (!pool_) return;
    // The signal first: a submission that waits for a value another thread signals from the
    // host (a CUDA stream's host function) keeps vkQueueWaitIdle's validation-layer bookkeeping
    // waiting until it times out; waiting for our own signal has no such hazard.
    if (signal_value_) {
      VkSemaphoreWaitInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
      info.semaphoreCount = 1;
      info.pSemaphores = &timeline_;
      info.pValues = &signal_value_;
      VK_CHECK(vkWaitSemaphores(context_.device(), &info, UINT64_MAX));
    }
    VK_CHECK(vkQueueWaitIdle(context_.queue()));
    vkDestroyCommandPool(context_.device(), pool_, nullptr);
    pool_ = VK_NULL_HANDLE;
  }

 private:
  const Context& context_;
  VkSemaphore timeline_;
  uint64_t signal_value_;
  VkCommandPool pool_ = VK_NULL_HANDLE;
};

// Records a copy of `size` bytes from `source` to `destination`, made visible to host reads.
inline void record_copy_to_host(VkCommandBuffer cmd, VkBuffer source, VkBuffer destination, VkDeviceSize size) {
  const VkBufferCopy region{0, 0, size};
  vkCmdCopyBuffer(cmd, source, destination, 1, &region);
  VkMemoryBarrier2 barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
  barrier.srcStageMask = VK_PIPELINE_STAGE_2_COPY_BIT;
  barrier.srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT;
  barrier.dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT;
  barrier.dstAccessMask = VK_ACCESS_2_HOST_READ_BIT;
  VkDependencyInfo dependency{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  dependency.memoryBarrierCount = 1;
  dependency.pMemoryBarriers = &barrier;
  vkCmdPipelineBarrier2(cmd, &dependency);
}

}  // namespace meniscus::test
