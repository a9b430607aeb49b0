#pragma once
// The HistoPyramid of Dyken et al. (§3): a stack of 2D levels over a square base of counts,
// each level a quarter of the one below, every texel a vec4 holding the four counts of the
// 2x2 block beneath it. Traversal maps an output key index k in [0, total) to the base element
// it belongs to and the local key index within that element's allocation: compaction when an
// element allocates 0 or 1 outputs, expansion when it allocates more.
//
// This is the CPU reference; the Vulkan and CUDA versions are tested against it.
#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace meniscus::sim {

class HistoPyramid {
 public:
  // `counts` is a side x side base (row-major, side a power of two >= 2).
  void build(std::span<const uint32_t> counts, uint32_t side);

  uint64_t total() const { return total_; }
  uint32_t side() const { return side_; }
  size_t level_count() const { return levels_.size(); }
  // Texel (i, j) of level l: the counts of its four children, order (0,0) (1,0) (0,1) (1,1).
  const std::array<uint32_t, 4>& texel(size_t level, uint32_t i, uint32_t j) const;

  struct Hit {
    uint32_t element;  // base index: v * side + u
    uint32_t local;    // which of the element's outputs (0 .. count - 1)
  };
  // Top-down traversal for key index `key` < total().
  Hit traverse(uint64_t key) const;

 private:
  uint32_t side_ = 0;
  uint64_t total_ = 0;
  std::vector<std::vector<std::array<uint32_t, 4>>> levels_;  // levels_[0]: side/2 squared
};

}  // namespace meniscus::sim
