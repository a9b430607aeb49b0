#include "engine/profile/gpu_timer.h"

#include <algorithm>
#include <atomic>
#include <stdexcept>

#include "engine/core/context.h"
#include "engine/core/error.h"
#include "engine/core/log.h"
#include "engine/profile/timestamps.h"

namespace meniscus::profile {
namespace {

// Once per process, not per timer: tools create short-lived timers in loops.
void warn_once(std::atomic<bool>& said, const char* message) {
  if (!said.exchange(true)) log::warn(message);
}
std::atomic<bool> said_disabled{false};
std::atomic<bool> said_missing{false};

}  // namespace

GpuPassTimer::GpuPassTimer(const Context& context, uint32_t frames_in_flight, uint32_t initial_passes)
    : context_(context), frames_(frames_in_flight) {
  if (frames_in_flight == 0) throw std::invalid_argument("GpuPassTimer: frames_in_flight must be at least 1");
  valid_bits_ = context.info().timestamp_valid_bits;
  period_ns_ = context.info().timestamp_period_ns;
  wanted_ = std::max(initial_passes, 1u);
  if (!enabled())
    warn_once(said_disabled, "GPU timestamps unsupported on this queue (timestampValidBits = 0): "
                             "per-pass GPU times will be absent");
}

GpuPassTimer::~GpuPassTimer() {
  for (Frame& frame : frames_) destroy_pools(frame);
}

VkQueryPool GpuPassTimer::create_pool(uint32_t queries, bool host_reset) {
  VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  info.queryType = VK_QUERY_TYPE_TIMESTAMP;
  info.queryCount = queries;
  VkQueryPool pool = VK_NULL_HANDLE;
  VK_CHECK(vkCreateQueryPool(context_.device(), &info, nullptr, &pool));
  context_.set_name(VK_OBJECT_TYPE_QUERY_POOL, uint64_t(pool), "profile.pass_timestamps");
  if (host_reset) vkResetQueryPool(context_.device(), pool, 0, queries);
  return pool;
}

void GpuPassTimer::destroy_pools(Frame& frame) {
  if (frame.pool) vkDestroyQueryPool(context_.device(), frame.pool, nullptr);
  for (VkQueryPool pool : frame.overflow) vkDestroyQueryPool(context_.device(), pool, nullptr);
  frame.pool = VK_NULL_HANDLE;
  frame.overflow.clear();
  frame.capacity = 0;
}

void GpuPassTimer::begin_frame(VkCommandBuffer cmd, uint32_t frame_slot) {
  Frame& frame = frames_.at(frame_slot);
  current_ = frame_slot;
  frame.names.clear();
  frame.started = true;
  if (!enabled()) return;
  // The slot's last submission is complete, so its pools can be replaced: by one that holds
  // as many passes as any frame has needed, instead of a main pool plus overflow pools.
  if (frame.capacity < wanted_ || !frame.overflow.empty()) {
    const uint32_t capacity = std::max(wanted_, frame.capacity);
    destroy_pools(frame);
    frame.pool = create_pool(1 + 2 * capacity, false);
    frame.capacity = capacity;
  }
  vkCmdResetQueryPool(cmd, frame.pool, 0, 1 + 2 * frame.capacity);
  vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT, frame.pool, 0);
}

GpuPassTimer::Frame& GpuPassTimer::recording_frame(const char* call) {
  Frame& frame = frames_[current_];
  if (!frame.started) throw std::logic_error(std::string("GpuPassTimer::") + call + " before begin_frame");
  return frame;
}

GpuPassTimer::Location GpuPassTimer::locate(Frame& frame, uint32_t pass) {
  if (pass < frame.capacity) return {frame.pool, 1 + 2 * pass};
  const uint32_t extra = pass - frame.capacity;
  const uint32_t index = extra / frame.capacity;
  // Created mid-recording, maybe inside a render pass instance where vkCmdResetQueryPool is not
  // allowed: reset from the host instead.
  while (frame.overflow.size() <= index) frame.overflow.push_back(create_pool(2 * frame.capacity, true));
  return {frame.overflow[index], 2 * (extra % frame.capacity)};
}

void GpuPassTimer::begin_pass(VkCommandBuffer cmd, uint32_t slot, std::string_view name) {
  Frame& frame = recording_frame("begin_pass");
  if (frame.names.size() <= slot) frame.names.resize(slot + 1);
  frame.names[slot] = std::string(name);
  wanted_ = std::max<uint32_t>(wanted_, static_cast<uint32_t>(frame.names.size()));
  if (!enabled()) return;
  const Location at = locate(frame, slot);
  vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT, at.pool, at.first);
}

void GpuPassTimer::end_pass(VkCommandBuffer cmd, uint32_t slot, std::string_view) {
  Frame& frame = recording_frame("end_pass");
  if (!enabled()) return;
  const Location at = locate(frame, slot);
  vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT, at.pool, at.first + 1);
}

std::vector<PassSample> GpuPassTimer::collect(uint32_t frame_slot) {
  Frame& frame = frames_.at(frame_slot);
  const uint32_t passes = static_cast<uint32_t>(frame.names.size());
  if (!enabled() || passes == 0) return {};
  // Gather the frame's queries in logical order (frame start, then a pair per pass) from the
  // main pool and the overflow pools. Without WAIT: after the fence everything written is
  // available; a query that never was reads as unavailable (VK_NOT_READY), not as a hang.
  std::vector<TimestampQuery> queries(1 + 2 * size_t(passes));
  auto read = [&](VkQueryPool pool, uint32_t first, uint32_t count, TimestampQuery* out) {
    const VkResult result = vkGetQueryPoolResults(context_.device(), pool, first, count, count * sizeof(TimestampQuery),
                                                  out, sizeof(TimestampQuery),
                                                  VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
    if (result != VK_NOT_READY) VK_CHECK(result);
  };
  const uint32_t in_main = std::min(passes, frame.capacity);
  read(frame.pool, 0, 1 + 2 * in_main, queries.data());
  for (uint32_t done = in_main, k = 0; done < passes; ++k) {
    const uint32_t count = std::min(passes - done, frame.capacity);
    read(frame.overflow.at(k), 0, 2 * count, queries.data() + 1 + 2 * size_t(done));
    done += count;
  }
  DecodedFrame decoded = decode_frame_timestamps(queries, frame.names, valid_bits_, period_ns_);
  if (decoded.missing > 0)
    warn_once(said_missing, "GPU timestamps: some pass timestamps were not available after the frame's fence; "
                            "those passes are left out of the timings");
  return std::move(decoded.passes);
}

}  // namespace meniscus::profile
