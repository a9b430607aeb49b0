#pragma once
// The small-node stage's two hot loops with AVX-512 on the CPU build (small_triangle_root.h has
// the portable ones, which the CUDA build and other CPUs run). Both give exactly the portable
// versions' masks and splits: the tests compare the trees.
//  - prepare_avx512: a candidate's masks straight from their definition, one candidate's plane
//    compared with all the root's box ends at once: left = starts below it or flat in it,
//    right = ends above it. (The portable prepare() sorts, which one GPU thread does cheaply.)
//  - best_split_avx512: the SAH of eight candidates at once, the first cheapest kept.
#include <cstdint>

#include "sim/kdtree/small_triangle_root.h"

namespace meniscus::sim::kdtree {

// Whether this CPU runs the functions below (AVX-512 F, DQ, VL and VPOPCNTDQ, and BMI2), and the
// build has them.
bool small_stage_avx512_available();

void prepare_avx512(SmallTriangleRoot& root);
SmallSplit best_split_avx512(const SmallTriangleRoot& root, const Box& box, uint64_t set,
                             const TriangleKdParams& params);

}  // namespace meniscus::sim::kdtree
