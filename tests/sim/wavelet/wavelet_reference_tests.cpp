// Our lifting against independent references (wavelet_reference.h): OpenJPEG's 5/3 and 9/7
// conventions, and brute-force convolution with the published analysis filters.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <span>
#include <string>

#include "sim/wavelet/wavelet_cpu.h"
#include "tests/sim/wavelet/wavelet_reference.h"
#include "tests/sim/wavelet/wavelet_test_data.h"

namespace meniscus::sim::wavelet {
namespace {

using testing::sample_data;

const Shape kReferencePlanes[] = {Shape::plane(2, 5), Shape::plane(16, 16), Shape::plane(23, 17), Shape::plane(100, 37),
                                  Shape::plane(255, 64)};

std::string label(const Shape& s, int levels) {
  return std::to_string(s.size[0]) + "x" + std::to_string(s.size[1]) + " levels " + std::to_string(levels);
}

TEST_CASE("wavelet: integer 5/3 equals OpenJPEG's reversible 5/3 coefficient for coefficient", "[wavelet]") {
  for (const Shape& shape : kReferencePlanes)
    for (int levels = 1; levels <= std::min(3, max_levels(shape)); ++levels) {
      INFO(label(shape, levels));
      const std::vector<int32_t> input = sample_data<int32_t>(shape, 4000.0, 5);
      std::vector<int32_t> ours = input, theirs = input;
      forward_cpu(std::span<int32_t>(ours), shape, Wavelet::LeGall53, levels);
      reference::openjpeg_2d(theirs, shape.size[0], shape.size[1], levels, reference::openjpeg_53);
      REQUIRE(ours == theirs);
    }
}

TEST_CASE("wavelet: float 9/7 equals OpenJPEG's irreversible 9/7 (T.800 scaling)", "[wavelet]") {
  // Same constants, same (a + b) · c rounding, same border doubling: equal to the bit, on every
  // coefficient of every level.
  for (const Shape& shape : kReferencePlanes)
    for (int levels = 1; levels <= std::min(3, max_levels(shape)); ++levels) {
      INFO(label(shape, levels));
      const std::vector<float> input = sample_data<float>(shape, 1000.0, 9);
      std::vector<float> ours = input, theirs = input;
      forward_cpu(std::span<float>(ours), shape, Wavelet::Cdf97, levels);
      reference::openjpeg_2d(theirs, shape.size[0], shape.size[1], levels, reference::openjpeg_97);
      REQUIRE(ours == theirs);
    }
}

// Separable multi-level convolution reference in double, then the largest difference relative
// to the largest input magnitude.
double convolution_difference(const Shape& shape, int levels, Wavelet wavelet, const std::vector<double>& low,
                              const std::vector<double>& high) {
  const std::vector<float> input = sample_data<float>(shape, 1000.0, 21);
  std::vector<float> ours = input;
  forward_cpu(std::span<float>(ours), shape, wavelet, levels);
  std::vector<double> expected(input.begin(), input.end());
  const long width = shape.size[0];
  for (int level = 0; level < levels; ++level) {
    const auto s = shape.level_size(level);
    for (long z = 0; z < long(s[2]); ++z) {
      double* plane = expected.data() + z * width * shape.size[1];
      std::vector<double> line;
      for (long x = 0; x < long(s[0]); ++x) {  // columns
        line.assign(s[1], 0.0);
        for (long y = 0; y < long(s[1]); ++y) line[y] = plane[y * width + x];
        line = reference::filter_bank(line, low, high);
        for (long y = 0; y < long(s[1]); ++y) plane[y * width + x] = line[y];
      }
      for (long y = 0; y < long(s[1]); ++y) {  // rows
        line.assign(plane + y * width, plane + y * width + s[0]);
        line = reference::filter_bank(line, low, high);
        std::copy(line.begin(), line.end(), plane + y * width);
      }
    }
  }
  double largest = 0, error = 0;
  for (size_t i = 0; i < input.size(); ++i) {
    largest = std::max(largest, double(std::abs(input[i])));
    error = std::max(error, std::abs(double(ours[i]) - expected[i]));
  }
  return error / largest;
}

TEST_CASE("wavelet: float 5/3 lifting equals convolution with Table 3.1's filters", "[wavelet]") {
  for (const Shape& shape : kReferencePlanes)
    for (int levels = 1; levels <= std::min(3, max_levels(shape)); ++levels) {
      INFO(label(shape, levels));
      REQUIRE(convolution_difference(shape, levels, Wavelet::LeGall53, reference::kLeGallLow, reference::kLeGallHigh) <
              1e-5);
    }
}

TEST_CASE("wavelet: float 9/7 lifting equals convolution with T.800's CDF 9/7 filters", "[wavelet]") {
  for (const Shape& shape : kReferencePlanes)
    for (int levels = 1; levels <= std::min(3, max_levels(shape)); ++levels) {
      INFO(label(shape, levels));
      REQUIRE(convolution_difference(shape, levels, Wavelet::Cdf97, reference::kCdfLow, reference::kCdfHigh) < 1e-5);
    }
}

TEST_CASE("wavelet: predictions annihilate the polynomials their vanishing moments promise", "[wavelet]") {
  // Away from the borders the detail band of a polynomial of degree < p is zero: p = 1 (Haar),
  // 2 (5/3), 4 (both Deslauriers–Dubuc, CDF 9/7). A cubic then separates the 4-point
  // predictors from the 2-point ones.
  const long n = 64;
  struct Case {
    Wavelet wavelet;
    int exact_degree;
  };
  for (Case c : {Case{Wavelet::Haar, 0}, Case{Wavelet::LeGall53, 1}, Case{Wavelet::DeslauriersDubuc97, 3},
                 Case{Wavelet::DeslauriersDubuc137, 3}, Case{Wavelet::Cdf97, 3}}) {
    INFO(wavelet_name(c.wavelet));
    for (int degree = 0; degree <= c.exact_degree + 1; ++degree) {
      // A side of 1 cannot be lifted, so the line is both rows of an n x 2 plane: the column
      // pass sees constants (zero details, low-pass DC gain 1) and row 0 is the lifted line.
      std::vector<float> plane(2 * n);
      double largest = 0;
      for (long i = 0; i < n; ++i) {
        plane[i] = plane[n + i] = float(std::pow(double(i - 30) / 4.0, degree));
        largest = std::max(largest, double(std::abs(plane[i])));
      }
      forward_cpu(std::span<float>(plane), Shape::plane(uint32_t(n), 2), c.wavelet, 1);
      double interior = 0;
      for (long k = 4; k < n / 2 - 4; ++k) interior = std::max(interior, double(std::abs(plane[n / 2 + k])));
      INFO("degree " << degree << ": largest interior detail " << interior);
      if (degree <= c.exact_degree)
        CHECK(interior < 2e-5 * largest);
      else
        CHECK(interior > 1e-3);
    }
  }
}

}  // namespace
}  // namespace meniscus::sim::wavelet
