#pragma once
// The 1D chunk/layer HistoPyramid layout of Dyken et al. §4.3, as the CUDA marching cubes
// (marching_cubes_cuda.cu) builds and descends it. Plain C++17 with no dependencies: nvcc
// compiles it.
//
// Level 0 is the base: one count per element, in element order. Element i of level l + 1 is
// the sum of the chunk of four elements 4i .. 4i+3 of level l, so a chunk is one aligned 4-wide
// load and a descent step picks one of four consecutive numbers. The base of a marching-cubes
// volume is its cells in x-fastest order with rows padded to a power of two of at least 64
// cells (the padding cells count 0), which keeps a row's 16-cell granules inside one level-2
// element and makes the row of a base index a shift away.
//
// Layers use the narrowest integer that holds them: base counts are at most kMaxBaseCount (63),
// so levels 0-1 fit in 8 bits (<= 252), levels 2-5 in 16 (<= 64512) and the rest in 32.
#include <cstdint>

#if defined(__CUDACC__)
#define MENISCUS_CHUNKED_HD __host__ __device__
#else
#define MENISCUS_CHUNKED_HD
#endif

namespace meniscus::sim::chunked {

inline constexpr uint32_t kMaxBaseCount = 63;
inline constexpr uint32_t kMaxLevels = 24;  // 4^23 base elements is far beyond any volume

// Bytes per element of level `level`.
MENISCUS_CHUNKED_HD constexpr uint32_t level_width(uint32_t level) { return level < 2 ? 1u : level < 6 ? 2u : 4u; }

// Elements of the level above one of `count` elements (every level rounded up to whole chunks).
MENISCUS_CHUNKED_HD constexpr uint64_t parent_count(uint64_t count) { return (count + 3) / 4; }

// Number of levels for a base of `base_count` elements: up to and including the 1-element top.
MENISCUS_CHUNKED_HD constexpr uint32_t level_count(uint64_t base_count) {
  uint32_t levels = 1;
  for (uint64_t n = base_count; n > 1; n = parent_count(n)) ++levels;
  return levels;
}

// Base elements per cell row: cells_x rounded up to a power of two of at least one 64-cell
// word, so a base index splits into cell row and x by a shift.
MENISCUS_CHUNKED_HD constexpr uint32_t row_stride(uint32_t cells_x) {
  uint32_t stride = 64;
  while (stride < cells_x) stride *= 2;
  return stride;
}

}  // namespace meniscus::sim::chunked
