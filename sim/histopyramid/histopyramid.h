#pragma once
// The HistoPyramid of Dyken et al. (§3): a stack of 2D levels over a square base of counts,
// each level a quarter of the one below, every texel a vec4 holding the four counts of the
// 2x2 block beneath it. Traversal maps an output key index k in [0, total) to the base element
// it belongs to and the local key index within that element's allocation: compaction when an
// element allocates 0 or 1 outputs, expansion when it allocates more.
//
// Levels are stored with the narrowest integer that holds them (§4.3's 8/16/32-bit layers):
// with base counts <= 63, levels 0-1 fit in 8 bits, 2-5 in 16, the rest in 32. For a 256^3
// marching-cubes volume that is 24 MB instead of 128 MB, which is most of the build's cost.
//
// This is the CPU reference; the Vulkan and CUDA versions are tested against it.
#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace meniscus::sim {

class HistoPyramid {
 public:
  static constexpr uint32_t kMaxBaseCount = 63;

  // `counts` is a side x side base (row-major, side a power of two >= 2), each <= kMaxBaseCount.
  void build(std::span<const uint32_t> counts, uint32_t side);
  // Same, from level 0 already packed: texel (i, j) at [(j * side/2 + i) * 4 .. + 3] holds the
  // counts of base elements (2i, 2j), (2i+1, 2j), (2i, 2j+1), (2i+1, 2j+1).
  void build_from_level0(std::vector<uint8_t> level0, uint32_t side);
  // The allocation-free way to rebuild every frame: zeroed level-0 storage to fill in place
  // (layout as above; its memory is kept from build to build), then build() the levels above.
  std::vector<uint8_t>& prepare_level0(uint32_t side);
  void build();

  uint64_t total() const { return total_; }
  uint32_t side() const { return side_; }
  size_t level_count() const { return levels_.size(); }
  // Texel (i, j) of level l: the counts of its four children, order (0,0) (1,0) (0,1) (1,1).
  std::array<uint32_t, 4> texel(size_t level, uint32_t i, uint32_t j) const;

  struct Hit {
    uint32_t element;  // base index: v * side + u
    uint32_t local;    // which of the element's outputs (0 .. count - 1)
  };
  // Top-down traversal for key index `key` < total().
  Hit traverse(uint64_t key) const;

  // Every non-empty base element with its first key and count, by a depth-first descent that
  // skips empty subtrees (the CPU's way to run all traversals at once). Calls may come from
  // several threads at once; each element is visited exactly once.
  void parallel_visit(const std::function<void(uint32_t element, uint64_t first_key, uint32_t count)>& visit) const;

 private:
  struct Level {
    uint32_t side = 0;  // texels per row
    uint32_t width = 4;  // bytes per component: 1, 2 or 4
    std::vector<uint8_t> bytes;
  };
  void build_levels();
  static void sum_level(const Level& below, Level& level);
  void descend(size_t level, uint32_t i, uint32_t j, uint64_t first,
               const std::function<void(uint32_t, uint64_t, uint32_t)>& visit) const;

  uint32_t side_ = 0;
  uint64_t total_ = 0;
  std::vector<Level> levels_;  // levels_[0]: side/2 squared texels
};

}  // namespace meniscus::sim
