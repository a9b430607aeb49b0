#include "sim/wavelet/wavelet_preview.h"

#include <string>

#include "engine/core/error.h"
#include "sim/wavelet/wavelet_cpu.h"

namespace meniscus::sim::wavelet {

WaveletPreview::WaveletPreview(std::span<const float> values, const Shape& shape, Wavelet wavelet, int levels,
                               std::string_view what)
    : shape_(shape), wavelet_(wavelet), levels_(levels), coefficients_(values.begin(), values.end()) {
  check_transform(shape, levels, values.size());
  check_finite(values.data(), values.size(), what);
  forward_cpu(std::span<float>(coefficients_), shape_, wavelet_, levels_);
}

std::vector<float> WaveletPreview::volume(int dropped) const {
  if (dropped < 0 || dropped > levels_)
    throw InputError("wavelet preview: level " + std::to_string(dropped) + " outside 0.." + std::to_string(levels_));
  std::vector<float> data = coefficients_;
  // Level l's details fill its input region (level_size(l - 1)) around its approximation
  // (level_size(l), the corner the next level transforms further): the Mallat layout.
  for (int level = 1; level <= dropped; ++level) {
    const auto outer = shape_.level_size(level - 1), inner = shape_.level_size(level);
    for (uint32_t z = 0; z < outer[2]; ++z)
      for (uint32_t y = 0; y < outer[1]; ++y)
        for (uint32_t x = 0; x < outer[0]; ++x)
          if (x >= inner[0] || y >= inner[1] || z >= inner[2])
            data[(size_t(z) * shape_.size[1] + y) * shape_.size[0] + x] = 0.0f;
  }
  inverse_cpu(std::span<float>(data), shape_, wavelet_, levels_);
  return data;
}

}  // namespace meniscus::sim::wavelet
