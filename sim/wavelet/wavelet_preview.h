#pragma once
// A volume as a progressive transmission of its wavelet coefficients shows it (thesis ch. 3):
// the forward transform to `levels` levels once, then for any level the volume rebuilt from the
// approximation and only the coarser details, the finest `dropped` levels of detail set to zero.
// dropped = levels is the coarsest approximation alone, smoothly interpolated by the wavelet's
// synthesis filters; every level less adds a band of detail; 0 gives the volume back (exactly
// for the integer transforms, within float rounding here). Same sample grid at every level, so
// a renderer can swap one for the next.
#include <span>
#include <vector>

#include "sim/wavelet/wavelet.h"

namespace meniscus::sim::wavelet {

class WaveletPreview {
 public:
  // InputError from check_transform / check_finite (naming `what`).
  WaveletPreview(std::span<const float> values, const Shape& shape, Wavelet wavelet, int levels, std::string_view what);

  int levels() const { return levels_; }
  // The volume without the finest `dropped` (0..levels) levels of detail.
  std::vector<float> volume(int dropped) const;

 private:
  Shape shape_;
  Wavelet wavelet_;
  int levels_;
  std::vector<float> coefficients_;
};

}  // namespace meniscus::sim::wavelet
