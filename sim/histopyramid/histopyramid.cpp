#include "sim/histopyramid/histopyramid.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <stdexcept>
#include <string>

namespace meniscus::sim {

void HistoPyramid::build(std::span<const uint32_t> counts, uint32_t side) {
  if (side < 2 || (side & (side - 1)) != 0) throw std::invalid_argument("HistoPyramid: side must be a power of two >= 2");
  if (counts.size() != size_t(side) * side) throw std::invalid_argument("HistoPyramid: counts is not side x side");
  side_ = side;
  levels_.clear();

  // Level 0 packs each 2x2 block of base counts into one vec4 texel.
  uint32_t s = side / 2;
  levels_.emplace_back(size_t(s) * s);
  tbb::parallel_for(tbb::blocked_range<uint32_t>(0, s), [&](const tbb::blocked_range<uint32_t>& rows) {
    for (uint32_t j = rows.begin(); j != rows.end(); ++j)
      for (uint32_t i = 0; i < s; ++i) {
        const size_t base = size_t(2 * j) * side + 2 * i;
        levels_[0][size_t(j) * s + i] = {counts[base], counts[base + 1], counts[base + side], counts[base + side + 1]};
      }
  });
  // Each level above sums the four components of each texel of the 2x2 block beneath.
  while (s > 1) {
    const uint32_t up = s / 2;
    const auto& below = levels_.back();
    std::vector<std::array<uint32_t, 4>> level(size_t(up) * up);
    auto sum = [&](uint32_t i, uint32_t j) {
      const auto& t = below[size_t(j) * s + i];
      return t[0] + t[1] + t[2] + t[3];
    };
    tbb::parallel_for(tbb::blocked_range<uint32_t>(0, up), [&](const tbb::blocked_range<uint32_t>& rows) {
      for (uint32_t j = rows.begin(); j != rows.end(); ++j)
        for (uint32_t i = 0; i < up; ++i)
          level[size_t(j) * up + i] = {sum(2 * i, 2 * j), sum(2 * i + 1, 2 * j), sum(2 * i, 2 * j + 1),
                                       sum(2 * i + 1, 2 * j + 1)};
    });
    levels_.push_back(std::move(level));
    s = up;
  }
  const auto& top = levels_.back()[0];
  total_ = uint64_t(top[0]) + top[1] + top[2] + top[3];
}

const std::array<uint32_t, 4>& HistoPyramid::texel(size_t level, uint32_t i, uint32_t j) const {
  const uint32_t s = side_ >> (level + 1);
  return levels_.at(level).at(size_t(j) * s + i);
}

HistoPyramid::Hit HistoPyramid::traverse(uint64_t key) const {
  if (key >= total_) throw std::out_of_range("HistoPyramid: key " + std::to_string(key) + " >= total " + std::to_string(total_));
  uint32_t i = 0, j = 0;
  for (size_t level = levels_.size(); level-- > 0;) {
    const auto& t = texel(level, i, j);
    // The four counts are consecutive key ranges; find the one holding `key`.
    int child = 0;
    while (child < 3 && key >= t[child]) key -= t[child++];
    i = 2 * i + (child & 1);
    j = 2 * j + (child >> 1);
  }
  return {j * side_ + i, static_cast<uint32_t>(key)};
}

}  // namespace meniscus::sim
