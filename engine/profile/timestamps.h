#pragma once
// Turning raw GPU timestamp queries into pass times. Pure arithmetic, kept apart from the
// query pools so it is tested without a device (wrap-around, missing queries).
//
// A frame's queries, in order: query 0 is the frame start, queries 1 + 2i and 2 + 2i bracket
// pass i. Each is read as a (value, availability) pair, which is exactly what
// vkGetQueryPoolResults writes with VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT
// and a 16-byte stride.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "engine/profile/timing_log.h"

namespace meniscus::profile {

struct TimestampQuery {
  uint64_t value = 0;
  uint64_t available = 0;  // non-zero once the GPU wrote the timestamp
};
static_assert(sizeof(TimestampQuery) == 2 * sizeof(uint64_t), "read straight from vkGetQueryPoolResults");

// The low `valid_bits` bits that count (VkQueueFamilyProperties::timestampValidBits); 0 for 0.
uint64_t timestamp_mask(uint32_t valid_bits);

// Ticks from `from` to `to`. Only the valid bits are compared, and the difference is taken
// modulo 2^valid_bits, so a counter that wrapped once in between still gives the right answer.
uint64_t timestamp_ticks(uint64_t from, uint64_t to, uint32_t valid_bits);

// Milliseconds for `ticks` of `period_ns` nanoseconds (VkPhysicalDeviceLimits::timestampPeriod).
double ticks_to_ms(uint64_t ticks, double period_ns);

struct DecodedFrame {
  std::vector<PassSample> passes;  // in pass order; a pass with a missing query is left out
  uint32_t missing = 0;            // passes left out
};

// `queries` holds 1 + 2 * names.size() entries. Pass times are relative to the frame-start
// query, or to the first available pass begin when the frame start itself is missing.
DecodedFrame decode_frame_timestamps(std::span<const TimestampQuery> queries, const std::vector<std::string>& names,
                                     uint32_t valid_bits, double period_ns);

}  // namespace meniscus::profile
