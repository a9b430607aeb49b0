#include "engine/profile/gpu_timer.h"

#include "engine/core/context.h"
#include "engine/core/error.h"
#include "engine/core/log.h"

namespace meniscus::profile {
namespace {
constexpr uint32_t kInitialPasses = 32;
}

GpuPassTimer::GpuPassTimer(const Context& context, uint32_t frames_in_flight)
    : context_(context), frames_(frames_in_flight) {
  const uint32_t bits = context.info().timestamp_valid_bits;
  // timestampValidBits says how many low bits count; the rest must be masked off, and
  // differences taken modulo 2^bits so a wrap between begin and end is still right.
  valid_mask_ = bits == 0 ? 0 : bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
  period_ns_ = context.info().timestamp_period_ns;
  if (!enabled()) log::warn("GPU timestamps unsupported on this queue: per-pass GPU times will be absent");
  for (Frame& frame : frames_) ensure_capacity(frame, kInitialPasses);
}

GpuPassTimer::~GpuPassTimer() {
  for (Frame& frame : frames_)
    if (frame.pool) vkDestroyQueryPool(context_.device(), frame.pool, nullptr);
}

void GpuPassTimer::ensure_capacity(Frame& frame, uint32_t passes) {
  if (frame.capacity >= passes || !enabled()) return;
  if (frame.pool) vkDestroyQueryPool(context_.device(), frame.pool, nullptr);
  VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  info.queryType = VK_QUERY_TYPE_TIMESTAMP;
  info.queryCount = passes * 2;
  VK_CHECK(vkCreateQueryPool(context_.device(), &info, nullptr, &frame.pool));
  // Host reset (Vulkan 1.2 core) so a fresh pool is usable before any command buffer resets it.
  vkResetQueryPool(context_.device(), frame.pool, 0, info.queryCount);
  frame.capacity = passes;
}

void GpuPassTimer::begin_frame(VkCommandBuffer cmd, uint32_t frame_slot) {
  current_ = frame_slot;
  Frame& frame = frames_.at(frame_slot);
  frame.names.clear();
  if (!enabled()) return;
  vkCmdResetQueryPool(cmd, frame.pool, 0, frame.capacity * 2);
}

void GpuPassTimer::begin_pass(VkCommandBuffer cmd, uint32_t slot, std::string_view name) {
  Frame& frame = frames_[current_];
  if (frame.names.size() <= slot) frame.names.resize(slot + 1);
  frame.names[slot] = std::string(name);
  if (!enabled()) return;
  if (slot >= frame.capacity) {
    // Growing a pool mid-recording is not possible; the next frame of this slot gets room.
    return;
  }
  vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, frame.pool, slot * 2);
}

void GpuPassTimer::end_pass(VkCommandBuffer cmd, uint32_t slot, std::string_view) {
  Frame& frame = frames_[current_];
  if (!enabled() || slot >= frame.capacity) return;
  vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, frame.pool, slot * 2 + 1);
}

std::vector<PassSample> GpuPassTimer::collect(uint32_t frame_slot) {
  Frame& frame = frames_.at(frame_slot);
  std::vector<PassSample> samples;
  const uint32_t recorded = static_cast<uint32_t>(frame.names.size());
  if (!enabled() || recorded == 0) return samples;
  const uint32_t timed = std::min(recorded, frame.capacity);
  // Pairs of (value, availability): a query that was not written reads as unavailable.
  std::vector<uint64_t> data(timed * 2 * 2);
  const VkResult result = vkGetQueryPoolResults(context_.device(), frame.pool, 0, timed * 2,
                                                data.size() * sizeof(uint64_t), data.data(), 2 * sizeof(uint64_t),
                                                VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
  if (result != VK_SUCCESS && result != VK_NOT_READY) VK_CHECK(result);
  const uint64_t origin = data[0] & valid_mask_;
  auto to_ms = [&](uint64_t ticks) { return double(ticks & valid_mask_) * period_ns_ * 1e-6; };
  for (uint32_t i = 0; i < timed; ++i) {
    const uint64_t begin = data[i * 4], begin_ok = data[i * 4 + 1];
    const uint64_t end = data[i * 4 + 2], end_ok = data[i * 4 + 3];
    if (!begin_ok || !end_ok) continue;
    samples.push_back({frame.names[i], to_ms((end & valid_mask_) - (begin & valid_mask_)),
                       to_ms((begin & valid_mask_) - origin), to_ms((end & valid_mask_) - origin)});
  }
  ensure_capacity(frame, recorded);  // a frame with more passes than room grows the pool
  return samples;
}

}  // namespace meniscus::profile
