// The 1D chunk/layer HistoPyramid (§4.3): sums, layer widths, traversal and the parallel visit.
#include <catch2/catch.hpp>

#include <algorithm>
#include <mutex>
#include <random>
#include <vector>

#include "sim/histopyramid/chunked_pyramid.h"

namespace meniscus::sim {

TEST_CASE("chunked pyramid: each element sums its chunk of four, in 8/16/32-bit layers", "[histopyramid][chunked]") {
  std::vector<uint8_t> counts(4096 + 3, chunked::kMaxBaseCount);  // not a power of four: padded chunks
  ChunkedHistoPyramid pyramid;
  pyramid.build(counts);
  REQUIRE(pyramid.level_count() == chunked::level_count(counts.size()));
  CHECK(pyramid.total() == uint64_t(counts.size()) * chunked::kMaxBaseCount);
  for (uint32_t l = 1; l < pyramid.level_count(); ++l)
    for (uint64_t i = 0; i < pyramid.level_size(l); ++i) {
      uint64_t sum = 0;
      for (uint64_t c = 4 * i; c < std::min(4 * i + 4, pyramid.level_size(l - 1)); ++c) sum += pyramid.value(l - 1, c);
      REQUIRE(pyramid.value(l, i) == sum);
    }
  // The full-count sums reach past 8 bits at level 2 and past 16 at level 6.
  CHECK(chunked::level_width(1) == 1);
  CHECK(chunked::level_width(2) == 2);
  CHECK(chunked::level_width(6) == 4);
  CHECK(pyramid.value(5, 0) == 63u * 1024u);
}

TEST_CASE("chunked pyramid: traversal and the parallel visit agree with prefix sums", "[histopyramid][chunked]") {
  std::mt19937 rng(7);
  for (size_t n : {size_t(1), size_t(5), size_t(64), size_t(1000), size_t(70001)}) {
    std::vector<uint8_t> counts(n);
    for (auto& c : counts) c = rng() % 3 == 0 ? uint8_t(rng() % (chunked::kMaxBaseCount + 1)) : 0;
    ChunkedHistoPyramid pyramid;
    pyramid.build(counts);
    std::vector<uint64_t> first(n + 1, 0);
    for (size_t i = 0; i < n; ++i) first[i + 1] = first[i] + counts[i];
    REQUIRE(pyramid.total() == first[n]);
    for (uint64_t key = 0; key < pyramid.total(); key += 1 + key / 50) {
      const auto hit = pyramid.traverse(key);
      REQUIRE(hit.element < n);
      REQUIRE(key >= first[hit.element]);
      REQUIRE(key - first[hit.element] == hit.local);
      REQUIRE(hit.local < counts[hit.element]);
    }
    std::mutex mutex;
    std::vector<uint64_t> seen(n, UINT64_MAX);
    pyramid.parallel_visit([&](uint64_t element, uint64_t first_key, uint32_t count) {
      std::lock_guard lock(mutex);
      REQUIRE(count == counts[element]);
      REQUIRE(seen[element] == UINT64_MAX);
      seen[element] = first_key;
    });
    for (size_t i = 0; i < n; ++i) REQUIRE(seen[i] == (counts[i] ? first[i] : UINT64_MAX));
  }
}

}  // namespace meniscus::sim
