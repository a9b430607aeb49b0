// Forward then inverse lifting gives the input back: bit for bit for integer storage (every
// wavelet, every level the size allows, odd sizes), within 1e-5 of the data's range for float.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <span>
#include <string>

#include "sim/wavelet/wavelet_cpu.h"
#include "tests/sim/wavelet/wavelet_test_data.h"

namespace meniscus::sim::wavelet {
namespace {

using testing::kAllWavelets;
using testing::sample_data;

const Shape kRoundTripPlanes[] = {Shape::plane(2, 2), Shape::plane(5, 3), Shape::plane(17, 31), Shape::plane(64, 48),
                                  Shape::plane(129, 67)};
const Shape kVolumes[] = {Shape::volume(2, 3, 2), Shape::volume(9, 7, 5), Shape::volume(16, 16, 16),
                          Shape::volume(33, 18, 11)};

std::string label(Wavelet w, const Shape& s, int levels) {
  return std::string(wavelet_name(w)) + " " + std::to_string(s.size[0]) + "x" + std::to_string(s.size[1]) + "x" +
         std::to_string(s.size[2]) + " levels " + std::to_string(levels);
}

template <class T>
void check_integer_round_trip(const Shape& shape, double amplitude) {
  for (Wavelet w : kAllWavelets)
    for (int levels = 1; levels <= max_levels(shape); ++levels) {
      INFO(label(w, shape, levels));
      const std::vector<T> original = sample_data<T>(shape, amplitude, 7 + levels);
      std::vector<T> data = original;
      forward_cpu(std::span<T>(data), shape, w, levels);
      // The transform did something: lifting moved the approximation into the corner.
      REQUIRE(data != original);
      inverse_cpu(std::span<T>(data), shape, w, levels);
      REQUIRE(data == original);
    }
}

TEST_CASE("wavelet: int32 lifting reconstructs bit-exactly, every wavelet and level, 2-D and 3-D", "[wavelet]") {
  for (const Shape& s : kRoundTripPlanes) check_integer_round_trip<int32_t>(s, 40000.0);
  for (const Shape& s : kVolumes) check_integer_round_trip<int32_t>(s, 40000.0);
}

TEST_CASE("wavelet: int16 lifting reconstructs bit-exactly, every wavelet and level, 2-D and 3-D", "[wavelet]") {
  // 12-bit data (CT) keeps the coefficients within int16; the full range wraps and must still
  // come back exactly, since every step is undone modulo 2^16.
  for (const Shape& s : kRoundTripPlanes) check_integer_round_trip<int16_t>(s, 2047.0);
  for (const Shape& s : kVolumes) check_integer_round_trip<int16_t>(s, 2047.0);
  for (const Shape& s : kRoundTripPlanes) check_integer_round_trip<int16_t>(s, 32767.0);
}

TEST_CASE("wavelet: float lifting reconstructs within 1e-5 of the data's range", "[wavelet]") {
  auto check = [](const Shape& shape) {
    for (Wavelet w : kAllWavelets)
      for (int levels = 1; levels <= max_levels(shape); ++levels) {
        INFO(label(w, shape, levels));
        const std::vector<float> original = sample_data<float>(shape, 1000.0, 3);
        std::vector<float> data = original;
        forward_cpu(std::span<float>(data), shape, w, levels);
        inverse_cpu(std::span<float>(data), shape, w, levels);
        double largest = 0, error = 0;
        for (size_t i = 0; i < data.size(); ++i) {
          largest = std::max(largest, double(std::abs(original[i])));
          error = std::max(error, double(std::abs(data[i] - original[i])));
        }
        REQUIRE(error <= 1e-5 * largest);
      }
  };
  for (const Shape& s : kRoundTripPlanes) check(s);
  for (const Shape& s : kVolumes) check(s);
}

TEST_CASE("wavelet: levels transform nested regions, the details of earlier levels untouched", "[wavelet]") {
  const Shape shape = Shape::plane(37, 21);
  const std::vector<int32_t> original = sample_data<int32_t>(shape, 1000.0, 11);
  std::vector<int32_t> one = original, two = original;
  forward_cpu(std::span<int32_t>(one), shape, Wavelet::LeGall53, 1);
  forward_cpu(std::span<int32_t>(two), shape, Wavelet::LeGall53, 2);
  const auto inner = shape.level_size(1);  // 19 x 11
  size_t outside_equal = 0, inside_differs = 0;
  for (uint32_t y = 0; y < shape.size[1]; ++y)
    for (uint32_t x = 0; x < shape.size[0]; ++x) {
      const size_t i = size_t(y) * shape.size[0] + x;
      if (x >= inner[0] || y >= inner[1])
        outside_equal += one[i] == two[i];
      else
        inside_differs += one[i] != two[i];
    }
  CHECK(outside_equal == shape.count() - size_t(inner[0]) * inner[1]);
  CHECK(inside_differs > 0);
}

}  // namespace
}  // namespace meniscus::sim::wavelet
