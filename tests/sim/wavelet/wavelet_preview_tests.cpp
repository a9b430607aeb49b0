// The progressive preview (sim/wavelet/wavelet_preview.h): all details give the volume back, each
// band of detail dropped (from noise, where every band carries energy) takes it farther away, the Haar preview one level down is the 2x2x2 block
// mean (its scaling function is the box), and bad levels or samples are refused.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "engine/core/error.h"
#include "sim/wavelet/wavelet_preview.h"
#include "tests/sim/wavelet/wavelet_test_data.h"

namespace meniscus::sim::wavelet {
namespace {

double rms_difference(const std::vector<float>& a, const std::vector<float>& b) {
  double sum = 0;
  for (size_t i = 0; i < a.size(); ++i) sum += double(a[i] - b[i]) * double(a[i] - b[i]);
  return std::sqrt(sum / double(a.size()));
}

}  // namespace

TEST_CASE("wavelet preview: all details rebuild the volume, each level withheld takes it farther away") {
  const Shape shape = Shape::volume(37, 29, 21);  // odd sizes: the symmetric extension at work
  const std::vector<float> original = testing::sample_data<float>(shape, 1000.0, 3);
  for (const Wavelet w : testing::kAllWavelets) {
    INFO(wavelet_name(w));
    const WaveletPreview preview(original, shape, w, 3, "test volume");
    CHECK(rms_difference(preview.volume(0), original) < 1e-5 * 1000.0);
    double closer = 0;
    for (int dropped = 1; dropped <= 3; ++dropped) {
      const double error = rms_difference(preview.volume(dropped), original);
      INFO("dropped " << dropped << ": rms " << error);
      CHECK(error > closer);
      closer = error;
    }
  }
}

TEST_CASE("wavelet preview: Haar one level down is the mean of each 2x2x2 block") {
  const Shape shape = Shape::volume(8, 6, 4);
  const std::vector<float> original = testing::sample_data<float>(shape, 100.0, 11);
  const std::vector<float> coarse = WaveletPreview(original, shape, Wavelet::Haar, 2, "test volume").volume(1);
  const auto at = [&](const std::vector<float>& v, uint32_t x, uint32_t y, uint32_t z) { return v[(z * 6 + y) * 8 + x]; };
  for (uint32_t z = 0; z < 4; ++z)
    for (uint32_t y = 0; y < 6; ++y)
      for (uint32_t x = 0; x < 8; ++x) {
        double mean = 0;
        for (uint32_t k = 0; k < 8; ++k) mean += at(original, (x & ~1u) + (k & 1), (y & ~1u) + (k >> 1 & 1), (z & ~1u) + (k >> 2)) / 8.0;
        REQUIRE(at(coarse, x, y, z) == Approx(mean).margin(1e-4));
      }
}

TEST_CASE("wavelet preview: levels beyond the transform and non-finite samples are refused") {
  const Shape shape = Shape::volume(9, 9, 9);
  std::vector<float> values(shape.count(), 1.0f);
  const WaveletPreview preview(values, shape, Wavelet::LeGall53, 2, "head.nrrd");
  CHECK_THROWS_AS(preview.volume(3), InputError);
  CHECK_THROWS_AS(preview.volume(-1), InputError);
  CHECK_THROWS_AS(WaveletPreview(values, shape, Wavelet::LeGall53, 5, "head.nrrd"), InputError);
  values[40] = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_WITH(WaveletPreview(values, shape, Wavelet::Cdf97, 2, "head.nrrd"), Catch::Contains("head.nrrd"));
}

}  // namespace meniscus::sim::wavelet
