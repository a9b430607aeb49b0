#include "engine/profile/timestamps.h"

#include <stdexcept>

namespace meniscus::profile {

uint64_t timestamp_mask(uint32_t valid_bits) {
  if (valid_bits == 0) return 0;
  return valid_bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << valid_bits) - 1;
}

uint64_t timestamp_ticks(uint64_t from, uint64_t to, uint32_t valid_bits) {
  // Unsigned subtraction is modulo 2^64; masking the result reduces it modulo 2^valid_bits.
  const uint64_t mask = timestamp_mask(valid_bits);
  return ((to & mask) - (from & mask)) & mask;
}

// Divided rather than multiplied by 1e-6 (not exact in binary): with the common period of 1 ns,
// whole ticks then become the double nearest the decimal, and files read "0.00002", not noise.
double ticks_to_ms(uint64_t ticks, double period_ns) { return double(ticks) * period_ns / 1e6; }

DecodedFrame decode_frame_timestamps(std::span<const TimestampQuery> queries, const std::vector<std::string>& names,
                                     uint32_t valid_bits, double period_ns) {
  if (queries.size() != 1 + 2 * names.size())
    throw std::invalid_argument("decode_frame_timestamps: " + std::to_string(queries.size()) + " queries for " +
                                std::to_string(names.size()) + " passes (need 1 + 2 per pass)");
  DecodedFrame out;
  if (names.empty()) return out;
  // The origin: the frame start, else the earliest pass begin that made it.
  const TimestampQuery* origin = queries[0].available ? &queries[0] : nullptr;
  for (size_t i = 0; !origin && i < names.size(); ++i)
    if (queries[1 + 2 * i].available) origin = &queries[1 + 2 * i];
  for (size_t i = 0; i < names.size(); ++i) {
    const TimestampQuery& begin = queries[1 + 2 * i];
    const TimestampQuery& end = queries[2 + 2 * i];
    if (!begin.available || !end.available || !origin) {
      ++out.missing;
      continue;
    }
    PassSample sample;
    sample.name = names[i];
    sample.gpu_ms = ticks_to_ms(timestamp_ticks(begin.value, end.value, valid_bits), period_ns);
    sample.begin_ms = ticks_to_ms(timestamp_ticks(origin->value, begin.value, valid_bits), period_ns);
    sample.end_ms = ticks_to_ms(timestamp_ticks(origin->value, end.value, valid_bits), period_ns);
    out.passes.push_back(std::move(sample));
  }
  return out;
}

}  // namespace meniscus::profile
