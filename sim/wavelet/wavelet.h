#pragma once
// Separable wavelet transforms by lifting (thesis ch. 3): the wavelets, the shape of the data
// and the checks every backend applies before transforming.
//
// Layout: each level transforms the approximation region left by the previous one (the first
// ceil(n/2^l) samples along every axis) and writes it de-interleaved, approximations first, as
// in Fig. 3.5 and OpenJPEG (the Mallat layout). Per level the axes are lifted outermost first
// (2-D: columns then rows, as JPEG 2000/OpenJPEG; 3-D: z, y, x); the inverse undoes them in the
// reverse order. Borders use whole-sample symmetric extension, so any size of at least two
// samples per axis and level works.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace meniscus::sim::wavelet {

enum class Wavelet { Haar, LeGall53, DeslauriersDubuc97, DeslauriersDubuc137, Cdf97 };

// "haar", "5/3", "9/7", "dd97", "dd137" (the command's names); InputError otherwise.
Wavelet parse_wavelet(std::string_view name);
const char* wavelet_name(Wavelet wavelet);

// Extent of the data along x (fastest), y and z. A 2-D shape has depth 1 and dimensions 2.
struct Shape {
  std::array<uint32_t, 3> size{0, 0, 1};
  int dimensions = 2;

  static Shape plane(uint32_t width, uint32_t height) { return Shape{{width, height, 1}, 2}; }
  static Shape volume(uint32_t x, uint32_t y, uint32_t z) { return Shape{{x, y, z}, 3}; }
  size_t count() const { return size_t(size[0]) * size[1] * size[2]; }
  // The approximation region transformed at `level` (0 = the whole data).
  std::array<uint32_t, 3> level_size(int level) const;
};

// The most levels `shape` allows: every transformed axis needs at least two samples at every
// level, i.e. more than 2^(L-1) samples for L levels.
int max_levels(const Shape& shape);

// Throws InputError naming the problem: empty data, a sample count that does not match the
// shape, a 2-D shape with depth, levels < 0 or more than the shape allows.
void check_transform(const Shape& shape, int levels, size_t sample_count);

// InputError at the first NaN or infinity (which lifting would spread over its support).
void check_finite(const float* values, size_t count, std::string_view what);

}  // namespace meniscus::sim::wavelet
