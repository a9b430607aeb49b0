#pragma once
// The image error measures of thesis Tables 2.1-2.2, between an approximate MIP and the exact
// one: the largest grey-level difference, the L1 difference relative to the exact image's L1
// norm, and the median of the non-zero differences.
#include "sim/mip/axis_mip.h"

namespace meniscus::sim::mip {

struct MipImageError {
  uint32_t max = 0;
  double relative_l1 = 0.0;
  double median = 0.0;  // of the non-zero differences; 0 when the images are equal
};

// The images must have the same size (std::invalid_argument otherwise).
MipImageError mip_image_error(const MipImage& approximate, const MipImage& exact);

}  // namespace meniscus::sim::mip
