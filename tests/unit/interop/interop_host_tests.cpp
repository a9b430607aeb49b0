// The host path of the interop layer, on whatever Vulkan device answers (lavapipe here).
#include <catch2/catch.hpp>

#include <algorithm>
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
#include "tests/unit/interop/timeline_submit.h"

namespace meniscus {

using Catch::Matchers::Contains;

TEST_CASE("a host shared buffer written by the CPU is what the GPU copies", "[interop]") {
  Context context(ContextOptions{.validation = true});
  constexpr size_t kCount = 4096;
  {
    SharedBuffer shared(context, kCount * sizeof(uint32_t), SharedMemory::Host, "test.shared");
    REQUIRE(shared.host_pointer() != nullptr);
    CHECK(shared.cuda_pointer() == nullptr);
    CHECK(shared.kind() == SharedMemory::Host);
    CHECK(shared.size() == kCount * sizeof(uint32_t));
    CHECK(shared.allocation_size() >= shared.size());
    std::vector<uint32_t> pattern(kCount);
    std::iota(pattern.begin(), pattern.end(), 0xC0FFEE00u);
    std::memcpy(shared.host_pointer(), pattern.data(), shared.size());

    Buffer readback(context, shared.size(), VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::Readback, "test.readback");
    std::memset(readback.mapped(), 0, readback.size());
    submit_and_wait(context, [&](VkCommandBuffer cmd) {
      test::record_copy_to_host(cmd, shared.buffer(), readback.handle(), shared.size());
    });
    readback.invalidate();
    CHECK(std::memcmp(readback.mapped(), pattern.data(), shared.size()) == 0);

    // A second pattern through the same mapping: the pointer stays valid and coherent.
    std::reverse(pattern.begin(), pattern.end());
    std::memcpy(shared.host_pointer(), pattern.data(), shared.size());
    submit_and_wait(context, [&](VkCommandBuffer cmd) {
      test::record_copy_to_host(cmd, shared.buffer(), readback.handle(), shared.size());
    });
    readback.invalidate();
    CHECK(std::memcmp(readback.mapped(), pattern.data(), shared.size()) == 0);
  }
  REQUIRE(context.validation_error_count() == 0);
}

TEST_CASE("a shared buffer of size 0 is refused", "[interop][errors]") {
  Context context(ContextOptions{.validation = true});
  CHECK_THROWS_WITH(SharedBuffer(context, 0, SharedMemory::Host, "test.empty"), Contains("test.empty"));
  REQUIRE(context.validation_error_count() == 0);
}

TEST_CASE("timeline semaphore host signal wait and value with strictly increasing values", "[interop][timeline]") {
  Context context(ContextOptions{.validation = true});
  {
    TimelineSemaphore timeline(context, false, 5);
    CHECK_FALSE(timeline.cuda_shared());
    CHECK(timeline.value() == 5);
    timeline.signal(7);
    timeline.wait(7);
    CHECK(timeline.value() == 7);
    CHECK(timeline.last_signalled() == 7);
    CHECK_THROWS_AS(timeline.signal(7), DeviceError);
    CHECK_THROWS_WITH(timeline.signal(3), Contains("strictly increase"));
    CHECK(timeline.value() == 7);  // a refused signal changes nothing
    CHECK(timeline.wait_for(7, 0));
    CHECK_FALSE(timeline.wait_for(8, 1000000));  // 1 ms: nobody signals 8
    timeline.signal(100);  // jumps are fine
    CHECK(timeline.value() == 100);
    // The CUDA side of a host-only semaphore is an error, not a no-op.
    CHECK_THROWS_WITH(timeline.cuda_wait(101, nullptr), Contains("not shared with CUDA"));
    CHECK_THROWS_WITH(timeline.cuda_signal(101, nullptr), Contains("not shared with CUDA"));
  }
  REQUIRE(context.validation_error_count() == 0);
}

TEST_CASE("a host signal below a value a queue submission signalled is refused", "[interop][timeline]") {
  Context context(ContextOptions{.validation = true});
  {
    TimelineSemaphore timeline(context, false, 0);
    test::TimelineSubmit submit(context, [](VkCommandBuffer) {}, timeline.handle(), 0, 10);
    submit.finish();
    CHECK(timeline.value() == 10);
    CHECK_THROWS_AS(timeline.signal(4), DeviceError);  // would move the counter backwards
    timeline.signal(11);
    CHECK(timeline.value() == 11);
  }
  REQUIRE(context.validation_error_count() == 0);
}

TEST_CASE("a GPU submission waits on the timeline before it reads the shared buffer", "[interop][timeline]") {
  // The frame's submit waits for "written" = 1 and signals "done reading" = 2; the host (the
  // CPU stand-in for a simulation stage) writes the buffer and signals 1 only afterwards. The
  // copy must see what was written after it was submitted.
  Context context(ContextOptions{.validation = true});
  {
    TimelineSemaphore timeline(context, false, 0);
    SharedBuffer shared(context, 256, SharedMemory::Host, "test.shared");
    Buffer readback(context, 256, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::Readback, "test.readback");
    std::memset(shared.host_pointer(), 0x11, 256);
    std::memset(readback.mapped(), 0, 256);

    test::TimelineSubmit submit(
        context, [&](VkCommandBuffer cmd) { test::record_copy_to_host(cmd, shared.buffer(), readback.handle(), 256); },
        timeline.handle(), 1, 2);
    CHECK_FALSE(timeline.wait_for(2, 50'000'000));  // 50 ms: still blocked on the wait for 1
    CHECK(timeline.value() == 0);
    std::memset(shared.host_pointer(), 0xAB, 256);
    timeline.signal(1);
    timeline.wait(2);
    submit.finish();
    readback.invalidate();
    const auto* bytes = static_cast<const uint8_t*>(readback.mapped());
    CHECK(bytes[0] == 0xAB);
    CHECK(bytes[255] == 0xAB);
    CHECK(timeline.value() == 2);
  }
  REQUIRE(context.validation_error_count() == 0);
}

TEST_CASE("backend choice: cpu always works and auto falls back while cuda says why it cannot", "[interop][backend]") {
  Context context(ContextOptions{.validation = true});
  CHECK(sim::resolve_backend("cpu", context.info()) == sim::SimBackend::Cpu);
  CHECK_THROWS_WITH(sim::resolve_backend("gpu", context.info()), Contains("--sim") && Contains("gpu"));
  CHECK_THROWS_AS(sim::resolve_backend("gpu", context.info()), InputError);
  std::string why;
  const auto device = find_cuda_device(context.info(), &why);
  if (device) {
    CHECK(sim::resolve_backend("auto", context.info()) == sim::SimBackend::Cuda);
    CHECK(sim::resolve_backend("cuda", context.info()) == sim::SimBackend::Cuda);
  } else {
    INFO("no CUDA device: " << why);
    CHECK_FALSE(why.empty());
    if (!cuda_built()) CHECK_THAT(why, Contains("built without CUDA"));
    CHECK(sim::resolve_backend("auto", context.info()) == sim::SimBackend::Cpu);
    CHECK_THROWS_AS(sim::resolve_backend("cuda", context.info()), DeviceError);
    CHECK_THROWS_WITH(sim::resolve_backend("cuda", context.info()), Contains(why));
    // Asking for CUDA memory or a CUDA-shared semaphore is an error, never a silent host fallback.
    CHECK_THROWS_AS(SharedBuffer(context, 64, SharedMemory::Cuda, "test.cuda"), DeviceError);
    CHECK_THROWS_AS(TimelineSemaphore(context, true), DeviceError);
    if (!cuda_built()) CHECK_THROWS_WITH(SharedBuffer(context, 64, SharedMemory::Cuda), Contains("built without CUDA"));
  }
  REQUIRE(context.validation_error_count() == 0);
}

}  // namespace meniscus
