// GPU pass timestamps on whatever Vulkan device answers (lavapipe here), validation on:
// frame-start origin, pass order, frames in flight kept apart, growth past the pool's capacity.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "engine/core/buffer.h"
#include "engine/core/commands.h"
#include "engine/core/context.h"
#include "engine/profile/gpu_timer.h"

namespace meniscus::profile {
namespace {

// Work the GPU has to do between a pass's timestamps: fill a buffer.
void record_passes(GpuPassTimer& timer, VkCommandBuffer cmd, const Buffer& target, const std::vector<std::string>& names) {
  for (uint32_t i = 0; i < names.size(); ++i) {
    timer.begin_pass(cmd, i, names[i]);
    vkCmdFillBuffer(cmd, target.handle(), 0, VK_WHOLE_SIZE, 0x01010101u * i);
    // The next pass fills the same buffer (synchronization validation is on).
    VkMemoryBarrier2 barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
    barrier.srcStageMask = barrier.dstStageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT;
    barrier.srcAccessMask = barrier.dstAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT;
    VkDependencyInfo dependency{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dependency.memoryBarrierCount = 1;
    dependency.pMemoryBarriers = &barrier;
    vkCmdPipelineBarrier2(cmd, &dependency);
    timer.end_pass(cmd, i, names[i]);
  }
}

std::vector<std::string> pass_names(const char* prefix, uint32_t count) {
  std::vector<std::string> names;
  for (uint32_t i = 0; i < count; ++i) names.push_back(std::string(prefix) + std::to_string(i));
  return names;
}

void check_frame(const std::vector<PassSample>& samples, const std::vector<std::string>& names) {
  REQUIRE(samples.size() == names.size());
  for (size_t i = 0; i < samples.size(); ++i) {
    INFO("pass " << samples[i].name);
    CHECK(samples[i].name == names[i]);
    CHECK(samples[i].gpu_ms >= 0.0);
    CHECK(samples[i].begin_ms >= 0.0);  // not before the frame-start timestamp
    CHECK(samples[i].end_ms == Approx(samples[i].begin_ms + samples[i].gpu_ms).margin(1e-9));
    if (i > 0) CHECK(samples[i].begin_ms >= samples[i - 1].begin_ms);
    CHECK(samples[i].gpu_ms < 10'000.0);  // a wrong period or mask gives absurd values
  }
}

}  // namespace

TEST_CASE("pass timestamps on the device", "[profile][gpu_timer]") {
  Context context(ContextOptions{.validation = true});
  GpuPassTimer timer(context, 2);
  if (!timer.enabled()) {
    WARN("device " << context.info().name << " has no timestamps; nothing to measure");
    return;
  }
  Buffer target(context, 4u << 20, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::DeviceLocal, "test.fill");

  SECTION("two frames in flight keep their own passes") {
    const auto first = pass_names("first.", 3), second = pass_names("second.", 5);
    submit_and_wait(context, [&](VkCommandBuffer cmd) {
      timer.begin_frame(cmd, 0);
      record_passes(timer, cmd, target, first);
    });
    submit_and_wait(context, [&](VkCommandBuffer cmd) {
      timer.begin_frame(cmd, 1);
      record_passes(timer, cmd, target, second);
    });
    const std::vector<PassSample> a = timer.collect(0), b = timer.collect(1);
    check_frame(a, first);
    check_frame(b, second);
    // Filling 4 MiB takes time on any device: the fill passes cannot all read as zero.
    double total = 0.0;
    for (const PassSample& s : b) total += s.gpu_ms;
    CHECK(total > 0.0);
  }

  SECTION("more passes than the pool holds are all timed, then the pool grows") {
    GpuPassTimer small(context, 1, 4);
    CHECK(small.capacity(0) == 0);
    const auto names = pass_names("pass.", 11);  // 4 in the main pool, 7 in two overflow pools
    for (int frame = 0; frame < 2; ++frame) {
      submit_and_wait(context, [&](VkCommandBuffer cmd) {
        small.begin_frame(cmd, 0);
        record_passes(small, cmd, target, names);
      });
      CHECK(small.capacity(0) == (frame == 0 ? 4u : 11u));
      check_frame(small.collect(0), names);
    }
  }

  SECTION("a frame with no passes collects nothing") {
    submit_and_wait(context, [&](VkCommandBuffer cmd) { timer.begin_frame(cmd, 0); });
    CHECK(timer.collect(0).empty());
  }

  CHECK(context.validation_error_count() == 0);
}

TEST_CASE("passes before begin_frame are a programming error", "[profile][gpu_timer]") {
  Context context(ContextOptions{});
  GpuPassTimer timer(context, 1);
  CHECK_THROWS_AS(timer.begin_pass(VK_NULL_HANDLE, 0, "early"), std::logic_error);
}

}  // namespace meniscus::profile
