#pragma once
// Test support: what a CUDA particle stage published into a Vulkan-exported buffer, read back
// through Vulkan in the order the stage's timeline gives ("written" -> copy -> "done reading").
// Header-only; used by the ballistic and SPH CUDA tests.
#include <vector>

#include "engine/core/buffer.h"
#include "engine/core/context.h"
#include "engine/core/error.h"
#include "engine/interop/shared_buffer.h"
#include "sim/common/particle_stage.h"
#include "tests/unit/interop/timeline_submit.h"

namespace meniscus::test {

inline std::vector<sim::Particle> read_back(const Context& context, sim::ParticleStage& stage, const SharedBuffer& shared) {
  const auto written = stage.gpu_wait(shared);
  const auto done = stage.gpu_done_reading(shared);
  if (!written || !done || written->semaphore != done->semaphore || done->value <= written->value)
    throw DeviceError("CUDA stage did not hand out increasing written / done-reading values on one timeline");
  Buffer readback(context, shared.size(), VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::Readback, "test.readback");
  {
    TimelineSubmit copy(
        context, [&](VkCommandBuffer cmd) { record_copy_to_host(cmd, shared.buffer(), readback.handle(), shared.size()); },
        written->semaphore, written->value, done->value);
    copy.finish();
  }
  readback.invalidate();
  const auto* first = static_cast<const sim::Particle*>(readback.mapped());
  return std::vector<sim::Particle>(first, first + stage.count());
}

}  // namespace meniscus::test
