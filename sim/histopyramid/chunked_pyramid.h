#pragma once
// The CPU build of the 1D chunk/layer HistoPyramid (layout: chunked_layout.h). The marching
// cubes fills its lowest three levels itself while classifying (only where a 16-cell granule
// has output; see MarchingCubes) and builds the rest here, so a chunk needs valid counts only
// under a non-zero parent: traversal and visits never read a chunk whose parent is zero.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "sim/histopyramid/chunked_layout.h"

namespace meniscus::sim {

class ChunkedHistoPyramid {
 public:
  // Sizes the levels for `base_count` base elements; contents are left as they are (memory is
  // kept between builds, so an extraction every frame allocates nothing).
  void resize(uint64_t base_count);
  // Dense build from every base count (each <= chunked::kMaxBaseCount).
  void build(std::span<const uint8_t> counts);
  // Builds the levels above `level`, which must hold valid counts everywhere.
  void build_above(uint32_t level);

  uint64_t base_count() const { return levels_.empty() ? 0 : levels_[0].count; }
  uint32_t level_count() const { return uint32_t(levels_.size()); }
  uint64_t level_size(uint32_t level) const { return levels_[level].count; }
  uint64_t total() const { return total_; }
  uint32_t value(uint32_t level, uint64_t i) const {
    const uint8_t* p = levels_[level].bytes.data();
    switch (chunked::level_width(level)) {
      case 1: return p[i];
      case 2: { uint16_t v; std::memcpy(&v, p + 2 * i, 2); return v; }
      default: { uint32_t v; std::memcpy(&v, p + 4 * i, 4); return v; }
    }
  }
  // Raw storage of a level (element i at i * level_width(level) bytes, padded to whole chunks).
  uint8_t* level_bytes(uint32_t level) { return levels_[level].bytes.data(); }

  struct Hit {
    uint64_t element;  // base index
    uint32_t local;    // which of the element's outputs
  };
  // Top-down traversal of output key `key` < total().
  Hit traverse(uint64_t key) const;

  // Calls visit(element, first_key, count) for every non-zero base element, from several
  // threads: the level with a few thousand elements is prefix-summed, and each of its non-zero
  // elements is descended sequentially, skipping zero subtrees.
  template <class Visit>
  void parallel_visit(const Visit& visit) const;

 private:
  struct Level {
    uint64_t count = 0;
    std::vector<uint8_t> bytes;
  };
  template <class Visit>
  void descend(uint32_t level, uint64_t i, uint64_t first, const Visit& visit) const;
  std::vector<Level> levels_;
  uint64_t total_ = 0;
  mutable std::vector<uint64_t> firsts_;  // prefix sums of the visit's split level
};

template <class Visit>
void ChunkedHistoPyramid::descend(uint32_t level, uint64_t i, uint64_t first, const Visit& visit) const {
  // Element i of `level` is non-zero: look at its chunk below. From level 2 down the two
  // 8-bit levels are read directly (the bulk of the descent, without a width switch).
  if (level == 2) {
    const uint8_t* sums = levels_[1].bytes.data() + 4 * i;
    const uint8_t* base = levels_[0].bytes.data() + 16 * i;
    for (uint32_t q = 0; q < 4; ++q) {
      if (!sums[q]) continue;
      for (uint32_t k = 0; k < 4; ++k) {
        const uint32_t count = base[4 * q + k];
        if (!count) continue;
        visit(16 * i + 4 * q + k, first, count);
        first += count;
      }
    }
    return;
  }
  for (uint64_t child = 4 * i; child < 4 * i + 4; ++child) {
    const uint32_t count = value(level - 1, child);
    if (!count) continue;
    if (level == 1) visit(child, first, count);
    else descend(level - 1, child, first, visit);
    first += count;
  }
}

template <class Visit>
void ChunkedHistoPyramid::parallel_visit(const Visit& visit) const {
  if (total_ == 0) return;
  uint32_t split = 0;
  while (split + 1 < levels_.size() && levels_[split].count > 4096) ++split;
  const uint64_t n = levels_[split].count;
  firsts_.resize(n);
  uint64_t running = 0;
  for (uint64_t i = 0; i < n; ++i) {
    firsts_[i] = running;
    running += value(split, i);
  }
  tbb::parallel_for(tbb::blocked_range<uint64_t>(0, n, 16), [&](const tbb::blocked_range<uint64_t>& r) {
    for (uint64_t i = r.begin(); i != r.end(); ++i) {
      const uint32_t count = value(split, i);
      if (!count) continue;
      if (split == 0) visit(i, firsts_[i], count);
      else descend(split, i, firsts_[i], visit);
    }
  });
}

}  // namespace meniscus::sim
