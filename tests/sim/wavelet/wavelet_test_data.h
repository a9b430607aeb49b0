#pragma once
// Inputs for the wavelet tests: deterministic pseudo-random samples (a smooth field plus noise,
// so coefficients look like an image's) in any storage type.
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "sim/wavelet/wavelet.h"

namespace meniscus::sim::wavelet::testing {

// Values within ±amplitude, x fastest.
template <class T>
std::vector<T> sample_data(const Shape& shape, double amplitude, uint32_t seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> noise(-0.25, 0.25);
  std::vector<T> data(shape.count());
  size_t i = 0;
  for (uint32_t z = 0; z < shape.size[2]; ++z)
    for (uint32_t y = 0; y < shape.size[1]; ++y)
      for (uint32_t x = 0; x < shape.size[0]; ++x, ++i) {
        const double smooth = 0.7 * std::sin(0.11 * x + 0.05 * y) * std::cos(0.07 * y - 0.13 * z);
        const double v = amplitude * (smooth + noise(random));
        data[i] = std::is_floating_point_v<T> ? T(v) : T(std::lround(v));
      }
  return data;
}

inline const Wavelet kAllWavelets[] = {Wavelet::Haar, Wavelet::LeGall53, Wavelet::DeslauriersDubuc97,
                                       Wavelet::DeslauriersDubuc137, Wavelet::Cdf97};

}  // namespace meniscus::sim::wavelet::testing
