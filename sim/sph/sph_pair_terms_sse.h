#pragma once
// compute_pairs_density_and_factor (sph_ops.h) four pairs at a time, for the CPU backend. Each
// pair's distance, kernel value and gradient take the same operations in the same order (SSE's
// square root and division round exactly as the scalar ones do), and the sums run over the pairs
// in list order, so the results are bit-identical to the shared scalar form the CUDA backend
// runs. The scalar form spent most of its time waiting on two divisions and a square root per
// pair, and on the branch between the kernel's two pieces, which the predictor cannot guess.
#include <cstdint>

#include "sim/sph/sph_ops.h"

namespace meniscus::sim::sph {

void compute_pairs_density_and_factor_sse(const Constants& c, const Arrays& a, uint32_t i, Vec3* fluid_gradient,
                                          Vec3* boundary_gradient);

}  // namespace meniscus::sim::sph
