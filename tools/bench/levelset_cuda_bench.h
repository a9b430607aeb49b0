#pragma once
// meniscus-bench levelset on the GPU: the sphere mean-curvature flow of levelset_bench.cpp on the
// CUDA sorted tile list (GPU-STL), one JSON line per radius, or one line saying why it skipped.
#include <vector>

namespace meniscus::bench {

void run_levelset_cuda(const std::vector<float>& radii, int steps);

}  // namespace meniscus::bench
