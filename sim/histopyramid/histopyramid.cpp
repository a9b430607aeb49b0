#include "sim/histopyramid/histopyramid.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_group.h>

#include <cstring>
#include <stdexcept>
#include <string>

namespace meniscus::sim {
namespace {

// Bytes per component for a level whose components can reach `max_value`.
uint32_t width_for(uint64_t max_value) { return max_value <= 0xFF ? 1 : max_value <= 0xFFFF ? 2 : 4; }

uint32_t load(const uint8_t* p, uint32_t width) {
  switch (width) {
    case 1: return *p;
    case 2: { uint16_t v; std::memcpy(&v, p, 2); return v; }
    default: { uint32_t v; std::memcpy(&v, p, 4); return v; }
  }
}

// One level from the one below, for component types Below and Out (the widths are fixed per
// level, so the inner loop carries no per-component switch).
template <typename Below, typename Out>
void sum_typed(const uint8_t* below_bytes, uint32_t below_side, uint8_t* out_bytes, uint32_t side) {
  const auto* below = reinterpret_cast<const Below*>(below_bytes);
  auto* out = reinterpret_cast<Out*>(out_bytes);
  tbb::parallel_for(tbb::blocked_range<uint32_t>(0, side), [&](const tbb::blocked_range<uint32_t>& rows) {
    for (uint32_t j = rows.begin(); j != rows.end(); ++j)
      for (uint32_t i = 0; i < side; ++i)
        for (uint32_t c = 0; c < 4; ++c) {
          const Below* t = below + (size_t(2 * j + (c >> 1)) * below_side + 2 * i + (c & 1)) * 4;
          out[(size_t(j) * side + i) * 4 + c] = Out(uint32_t(t[0]) + t[1] + t[2] + t[3]);
        }
  });
}

// Below this level the descent runs sequentially inside one task.
constexpr size_t kParallelAbove = 3;

}  // namespace

void HistoPyramid::build(std::span<const uint32_t> counts, uint32_t side) {
  if (side < 2 || (side & (side - 1)) != 0) throw std::invalid_argument("HistoPyramid: side must be a power of two >= 2");
  if (counts.size() != size_t(side) * side) throw std::invalid_argument("HistoPyramid: counts is not side x side");
  const uint32_t s = side / 2;
  std::vector<uint8_t> level0(size_t(s) * s * 4);
  for (uint32_t j = 0; j < s; ++j)
    for (uint32_t i = 0; i < s; ++i)
      for (uint32_t c = 0; c < 4; ++c) {
        const uint32_t count = counts[size_t(2 * j + (c >> 1)) * side + 2 * i + (c & 1)];
        if (count > kMaxBaseCount)
          throw std::invalid_argument("HistoPyramid: base count " + std::to_string(count) + " exceeds " +
                                      std::to_string(kMaxBaseCount));
        level0[(size_t(j) * s + i) * 4 + c] = uint8_t(count);
      }
  build_from_level0(std::move(level0), side);
}

void HistoPyramid::build_from_level0(std::vector<uint8_t> level0, uint32_t side) {
  std::vector<uint8_t>& storage = prepare_level0(side);
  if (level0.size() != storage.size()) throw std::invalid_argument("HistoPyramid: level 0 has the wrong size");
  storage = std::move(level0);
  build();
}

std::vector<uint8_t>& HistoPyramid::prepare_level0(uint32_t side) {
  if (side < 2 || (side & (side - 1)) != 0) throw std::invalid_argument("HistoPyramid: side must be a power of two >= 2");
  side_ = side;
  if (levels_.empty()) levels_.emplace_back();
  Level& level0 = levels_[0];
  level0.side = side / 2;
  level0.width = 1;
  level0.bytes.assign(size_t(level0.side) * level0.side * 4, 0);  // keeps the capacity
  return level0.bytes;
}

void HistoPyramid::build() { build_levels(); }

void HistoPyramid::sum_level(const Level& below, Level& level) {
  const uint8_t* in = below.bytes.data();
  uint8_t* out = level.bytes.data();
  const uint32_t key = below.width * 8 + level.width;
  switch (key) {
    case 1 * 8 + 1: sum_typed<uint8_t, uint8_t>(in, below.side, out, level.side); break;
    case 1 * 8 + 2: sum_typed<uint8_t, uint16_t>(in, below.side, out, level.side); break;
    case 2 * 8 + 2: sum_typed<uint16_t, uint16_t>(in, below.side, out, level.side); break;
    case 2 * 8 + 4: sum_typed<uint16_t, uint32_t>(in, below.side, out, level.side); break;
    case 4 * 8 + 4: sum_typed<uint32_t, uint32_t>(in, below.side, out, level.side); break;
    default: throw std::logic_error("HistoPyramid: unexpected level widths");
  }
}

void HistoPyramid::build_levels() {
  uint64_t component_max = kMaxBaseCount;
  size_t count = 1;
  while (levels_[count - 1].side > 1) {
    if (levels_.size() <= count) levels_.emplace_back();
    const Level& below = levels_[count - 1];
    component_max *= 4;  // a component of the new level sums a whole texel below
    Level& level = levels_[count];
    level.side = below.side / 2;
    level.width = width_for(component_max);
    level.bytes.resize(size_t(level.side) * level.side * 4 * level.width);  // every byte is written below
    sum_level(below, level);
    ++count;
  }
  levels_.resize(count);
  const auto top = texel(levels_.size() - 1, 0, 0);
  total_ = uint64_t(top[0]) + top[1] + top[2] + top[3];
}

std::array<uint32_t, 4> HistoPyramid::texel(size_t level, uint32_t i, uint32_t j) const {
  const Level& l = levels_.at(level);
  if (i >= l.side || j >= l.side) throw std::out_of_range("HistoPyramid: texel outside its level");
  const uint8_t* t = l.bytes.data() + (size_t(j) * l.side + i) * 4 * l.width;
  return {load(t, l.width), load(t + l.width, l.width), load(t + 2 * l.width, l.width), load(t + 3 * l.width, l.width)};
}

HistoPyramid::Hit HistoPyramid::traverse(uint64_t key) const {
  if (key >= total_) throw std::out_of_range("HistoPyramid: key " + std::to_string(key) + " >= total " + std::to_string(total_));
  uint32_t i = 0, j = 0;
  for (size_t level = levels_.size(); level-- > 0;) {
    const auto t = texel(level, i, j);
    // The four counts are consecutive key ranges; find the one holding `key`.
    int child = 0;
    while (child < 3 && key >= t[child]) key -= t[child++];
    i = 2 * i + (child & 1);
    j = 2 * j + (child >> 1);
  }
  return {j * side_ + i, static_cast<uint32_t>(key)};
}

void HistoPyramid::descend(size_t level, uint32_t i, uint32_t j, uint64_t first,
                           const std::function<void(uint32_t, uint64_t, uint32_t)>& visit) const {
  const auto t = texel(level, i, j);
  tbb::task_group group;
  for (uint32_t c = 0; c < 4; ++c) {
    const uint32_t count = t[c];
    const uint32_t ci = 2 * i + (c & 1), cj = 2 * j + (c >> 1);
    if (count > 0) {
      if (level == 0) visit(cj * side_ + ci, first, count);
      else if (level > kParallelAbove) group.run([=, this, &visit] { descend(level - 1, ci, cj, first, visit); });
      else descend(level - 1, ci, cj, first, visit);
    }
    first += count;
  }
  group.wait();
}

void HistoPyramid::parallel_visit(const std::function<void(uint32_t, uint64_t, uint32_t)>& visit) const {
  if (total_ > 0) descend(levels_.size() - 1, 0, 0, 0, visit);
}

}  // namespace meniscus::sim
