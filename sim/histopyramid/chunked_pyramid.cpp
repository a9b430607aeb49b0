#include "sim/histopyramid/chunked_pyramid.h"

#include <stdexcept>
#include <string>

namespace meniscus::sim {
namespace {

// Level `out` from the level below it, for element types Below and Out fixed per level (so the
// loop has no width switch and vectorises).
template <typename Below, typename Out>
void sum_chunks(const uint8_t* below_bytes, uint8_t* out_bytes, uint64_t count) {
  const auto* below = reinterpret_cast<const Below*>(below_bytes);
  auto* out = reinterpret_cast<Out*>(out_bytes);
  auto sum = [&](uint64_t begin, uint64_t end) {
    for (uint64_t i = begin; i != end; ++i) {
      const Below* c = below + 4 * i;
      out[i] = Out(uint32_t(c[0]) + c[1] + c[2] + c[3]);
    }
  };
  // The upper levels are tiny: waking the other threads would cost more than the sums.
  constexpr uint64_t kGrain = 1 << 15;
  if (count <= kGrain) return sum(0, count);
  tbb::parallel_for(tbb::blocked_range<uint64_t>(0, count, kGrain),
                    [&](const tbb::blocked_range<uint64_t>& r) { sum(r.begin(), r.end()); });
}

}  // namespace

void ChunkedHistoPyramid::resize(uint64_t base_count) {
  if (base_count == 0) throw std::invalid_argument("ChunkedHistoPyramid: empty base");
  const uint32_t levels = chunked::level_count(base_count);
  if (levels > chunked::kMaxLevels) throw std::invalid_argument("ChunkedHistoPyramid: base too large");
  levels_.resize(levels);
  uint64_t count = base_count;
  for (uint32_t l = 0; l < levels; ++l) {
    Level& level = levels_[l];
    const uint32_t width = chunked::level_width(l);
    level.count = count;
    // Whole chunks, so a chunk read never leaves the level; the padding counts 0.
    const uint64_t padded = chunked::parent_count(count) * 4;
    level.bytes.resize(padded * width);
    std::memset(level.bytes.data() + count * width, 0, (padded - count) * width);
    count = chunked::parent_count(count);
  }
  total_ = 0;
}

void ChunkedHistoPyramid::build(std::span<const uint8_t> counts) {
  resize(counts.size());
  uint64_t sum = 0;
  for (uint8_t c : counts) {
    if (c > chunked::kMaxBaseCount)
      throw std::invalid_argument("ChunkedHistoPyramid: base count " + std::to_string(c) + " exceeds " +
                                  std::to_string(chunked::kMaxBaseCount));
    sum += c;
  }
  if (sum > UINT32_MAX) throw std::invalid_argument("ChunkedHistoPyramid: total over 2^32 outputs");
  std::memcpy(levels_[0].bytes.data(), counts.data(), counts.size());
  build_above(0);
}

void ChunkedHistoPyramid::build_above(uint32_t level) {
  for (uint32_t l = level + 1; l < levels_.size(); ++l) {
    const uint8_t* in = levels_[l - 1].bytes.data();
    uint8_t* out = levels_[l].bytes.data();
    const uint64_t n = levels_[l].count;
    switch (chunked::level_width(l - 1) * 8 + chunked::level_width(l)) {
      case 1 * 8 + 1: sum_chunks<uint8_t, uint8_t>(in, out, n); break;
      case 1 * 8 + 2: sum_chunks<uint8_t, uint16_t>(in, out, n); break;
      case 2 * 8 + 2: sum_chunks<uint16_t, uint16_t>(in, out, n); break;
      case 2 * 8 + 4: sum_chunks<uint16_t, uint32_t>(in, out, n); break;
      case 4 * 8 + 4: sum_chunks<uint32_t, uint32_t>(in, out, n); break;
      default: throw std::logic_error("ChunkedHistoPyramid: unexpected level widths");
    }
  }
  total_ = value(uint32_t(levels_.size() - 1), 0);
}

ChunkedHistoPyramid::Hit ChunkedHistoPyramid::traverse(uint64_t key) const {
  if (key >= total_) throw std::out_of_range("ChunkedHistoPyramid: key " + std::to_string(key) + " >= total " + std::to_string(total_));
  uint64_t i = 0;
  for (uint32_t level = uint32_t(levels_.size()) - 1; level > 0; --level) {
    // The chunk's four counts are consecutive key ranges; pick the one holding `key`.
    uint64_t child = 4 * i;
    for (int c = 0; c < 3; ++c) {
      const uint32_t count = value(level - 1, child);
      if (key < count) break;
      key -= count;
      ++child;
    }
    i = child;
  }
  return {i, uint32_t(key)};
}

}  // namespace meniscus::sim
