#pragma once
// meniscus-bench levelset on the GPU: the sphere mean-curvature flow of levelset_bench.cpp on the
// CUDA sorted tile list (GPU-STL), one JSON line per radius and tile precision, or one line
// saying why it skipped.
#include <vector>

#include "sim/levelset/sorted_tile_list.h"

namespace meniscus::bench {

void run_levelset_cuda(const std::vector<float>& radii, int steps,
                       const std::vector<sim::levelset::TilePrecision>& precisions);

}  // namespace meniscus::bench
