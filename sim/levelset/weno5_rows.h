#pragma once
// HJ-WENO5 one-sided derivatives at four voxels of a row at once (CPU only): weno5.h's formula
// on Float4 lanes, so each lane is bit-equal to weno5_minus / weno5_plus at its voxel.
#include "sim/common/float4.h"
#include "sim/levelset/weno5.h"

#if defined(MENISCUS_HAS_FLOAT4)
namespace meniscus::sim::levelset {

class Weno5Row {
 public:
  // The stencils along the axis of stride s around the four voxels from `row`.
  Weno5Row(const float* row, int s) {
    Float4 below = Float4::load(row - 3 * s);
    for (int k = -3; k <= 2; ++k) {
      const Float4 above = Float4::load(row + (k + 1) * s);
      d_[k + 3] = above - below;
      below = above;
    }
  }

  Float4 minus() const { return weno5(d_[0], d_[1], d_[2], d_[3], d_[4]); }
  Float4 plus() const { return weno5(d_[5], d_[4], d_[3], d_[2], d_[1]); }
  // Per lane the backward-biased derivative where u > 0, else the forward-biased one
  // (upwind_gradient): the stencils are chosen lane by lane, then combined once.
  Float4 upwind(Float4 u) const {
    const __m128 backward = u > 0.0f;
    return weno5(choose(backward, d_[0], d_[5]), choose(backward, d_[1], d_[4]), choose(backward, d_[2], d_[3]),
                 choose(backward, d_[3], d_[2]), choose(backward, d_[4], d_[1]));
  }

 private:
  Float4 d_[6];  // d_[k + 3] = φ[k + 1] − φ[k], k = −3..2, the same differences weno5_minus/plus take
};

}  // namespace meniscus::sim::levelset
#endif
