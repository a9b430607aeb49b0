// Raw timestamp queries to pass times, without a device: masking, wrap-around, missing queries.
#include <catch2/catch.hpp>

#include <limits>
#include <stdexcept>

#include "engine/profile/timestamps.h"

namespace meniscus::profile {

TEST_CASE("timestamp masks", "[profile][timestamps]") {
  CHECK(timestamp_mask(0) == 0);
  CHECK(timestamp_mask(1) == 1);
  CHECK(timestamp_mask(36) == 0xFFFFFFFFFull);
  CHECK(timestamp_mask(64) == std::numeric_limits<uint64_t>::max());
}

TEST_CASE("tick differences ignore invalid bits and survive a wrap", "[profile][timestamps]") {
  CHECK(timestamp_ticks(100, 350, 64) == 250);
  // Bits above the valid ones are garbage and must not count.
  CHECK(timestamp_ticks(0xAB00000000000010ull, 0xCD00000000000030ull, 48) == 0x20);
  // A 32-bit counter that wrapped between begin and end: 0xFFFFFFF0 -> 0x10 is 0x20 ticks.
  CHECK(timestamp_ticks(0xFFFFFFF0ull, 0x10ull, 32) == 0x20);
  // 64-bit wrap.
  CHECK(timestamp_ticks(std::numeric_limits<uint64_t>::max() - 4, 5, 64) == 10);
  CHECK(ticks_to_ms(2'000'000, 1.0) == Approx(2.0));
  CHECK(ticks_to_ms(1000, 41.666) == Approx(0.041666));
}

TEST_CASE("a frame's queries become passes relative to the frame start", "[profile][timestamps]") {
  // Period 10 ns: 100'000 ticks = 1 ms. A 32-bit counter that wraps during pass "b".
  const uint64_t start = 0xFFFF0000ull;  // frame start
  const uint64_t a0 = start + 100'000, a1 = start + 300'000;
  const uint64_t b0 = start + 300'000;
  const uint64_t b1 = (start + 600'000) & 0xFFFFFFFFull;  // wrapped
  std::vector<TimestampQuery> q = {{start, 1}, {a0, 1}, {a1, 1}, {b0, 1}, {b1, 1}};
  const DecodedFrame frame = decode_frame_timestamps(q, {"a", "b"}, 32, 10.0);
  REQUIRE(frame.passes.size() == 2);
  CHECK(frame.missing == 0);
  CHECK(frame.passes[0].name == "a");
  CHECK(frame.passes[0].gpu_ms == Approx(2.0));
  CHECK(frame.passes[0].begin_ms == Approx(1.0));
  CHECK(frame.passes[0].end_ms == Approx(3.0));
  CHECK(frame.passes[1].name == "b");
  CHECK(frame.passes[1].gpu_ms == Approx(3.0));
  CHECK(frame.passes[1].begin_ms == Approx(3.0));
  CHECK(frame.passes[1].end_ms == Approx(6.0));
}

TEST_CASE("passes with a missing query are left out and counted", "[profile][timestamps]") {
  std::vector<TimestampQuery> q = {{1000, 1}, {1100, 1}, {1200, 1}, {1300, 1}, {0, 0}, {1500, 1}, {1600, 1}};
  const DecodedFrame frame = decode_frame_timestamps(q, {"a", "b", "c"}, 64, 1e6);  // 1 tick = 1 ms
  REQUIRE(frame.passes.size() == 2);
  CHECK(frame.missing == 1);
  CHECK(frame.passes[0].name == "a");
  CHECK(frame.passes[1].name == "c");
  CHECK(frame.passes[1].begin_ms == Approx(500.0));
  CHECK(frame.passes[1].gpu_ms == Approx(100.0));
}

TEST_CASE("without a frame-start query the first pass begin is the origin", "[profile][timestamps]") {
  std::vector<TimestampQuery> q = {{0, 0}, {0, 0}, {0, 0}, {5000, 1}, {7000, 1}};
  const DecodedFrame frame = decode_frame_timestamps(q, {"a", "b"}, 64, 1e3);  // 1 tick = 1 us
  REQUIRE(frame.passes.size() == 1);
  CHECK(frame.missing == 1);
  CHECK(frame.passes[0].begin_ms == 0.0);
  CHECK(frame.passes[0].end_ms == Approx(2.0));
}

TEST_CASE("query count must match the passes", "[profile][timestamps]") {
  std::vector<TimestampQuery> q(4);
  CHECK_THROWS_AS(decode_frame_timestamps(q, {"a", "b"}, 64, 1.0), std::invalid_argument);
  CHECK(decode_frame_timestamps(std::vector<TimestampQuery>(1), {}, 64, 1.0).passes.empty());
}

}  // namespace meniscus::profile
