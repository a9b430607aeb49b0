#pragma once
// Which segment of a segmented list an item belongs to, for kernels that run a thread per item
// over lists cut into consecutive segments (a node's points or triangles, a node's chunks).
#include <cuda_runtime.h>

#include <cstdint>

namespace meniscus::sim {

// The segment holding `item` when segment s is [begin[s], begin[s + 1]), s < segments: the
// last s with begin[s] <= item (binary search; empty segments are passed over).
__device__ inline uint32_t owning_segment(const uint32_t* begin, uint32_t segments, uint32_t item) {
  uint32_t lo = 0, hi = segments;  // begin[lo] <= item < begin[hi]
  while (hi - lo > 1) {
    const uint32_t mid = (lo + hi) / 2;
    if (begin[mid] <= item) lo = mid;
    else hi = mid;
  }
  return lo;
}

}  // namespace meniscus::sim
