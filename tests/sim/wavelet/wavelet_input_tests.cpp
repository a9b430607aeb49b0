// Bad input gets one clear error naming what is wrong, before any sample is touched.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <span>
#include <vector>

#include "engine/core/error.h"
#include "sim/wavelet/wavelet_cpu.h"

namespace meniscus::sim::wavelet {
namespace {

using Catch::Matchers::Contains;

TEST_CASE("wavelet: more levels than a size allows is an error naming the axis and the limit", "[wavelet]") {
  CHECK(max_levels(Shape::plane(1920, 1080)) == 11);
  CHECK(max_levels(Shape::plane(2, 2)) == 1);
  CHECK(max_levels(Shape::plane(3, 100)) == 2);
  CHECK(max_levels(Shape::volume(17, 64, 64)) == 5);
  std::vector<int32_t> data(12 * 5, 7);
  const std::vector<int32_t> before = data;
  CHECK_THROWS_WITH(forward_cpu(std::span<int32_t>(data), Shape::plane(12, 5), Wavelet::LeGall53, 4),
                    Contains("4 levels") && Contains("y has 5") && Contains("at most 3 levels"));
  CHECK(data == before);
  CHECK_NOTHROW(forward_cpu(std::span<int32_t>(data), Shape::plane(12, 5), Wavelet::LeGall53, 3));
}

TEST_CASE("wavelet: empty data, a wrong sample count, a 2-D shape with depth are errors", "[wavelet]") {
  std::vector<float> none;
  CHECK_THROWS_AS(forward_cpu(std::span<float>(none), Shape::plane(0, 4), Wavelet::Haar, 1), InputError);
  CHECK_THROWS_WITH(forward_cpu(std::span<float>(none), Shape::plane(0, 4), Wavelet::Haar, 1), Contains("empty"));
  std::vector<float> some(10);
  CHECK_THROWS_WITH(forward_cpu(std::span<float>(some), Shape::plane(4, 4), Wavelet::Haar, 1), Contains("10 samples"));
  CHECK_THROWS_WITH(inverse_cpu(std::span<float>(some), Shape{{5, 1, 2}, 2}, Wavelet::Haar, 1), Contains("depth"));
  CHECK_THROWS_WITH(forward_cpu(std::span<float>(some), Shape::plane(5, 2), Wavelet::Haar, -1), Contains("negative"));
}

TEST_CASE("wavelet: NaN and infinity are named with their sample", "[wavelet]") {
  std::vector<float> values(8, 1.0f);
  CHECK_NOTHROW(check_finite(values.data(), values.size(), "head.nrrd"));
  values[5] = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_WITH(check_finite(values.data(), values.size(), "head.nrrd"),
                    Contains("head.nrrd") && Contains("sample 5") && Contains("NaN"));
  values[5] = 1.0f;
  values[2] = -std::numeric_limits<float>::infinity();
  CHECK_THROWS_WITH(check_finite(values.data(), values.size(), "x"), Contains("infinite"));
}

TEST_CASE("wavelet: names parse, unknown names are errors listing the choices", "[wavelet]") {
  for (const char* name : {"haar", "5/3", "9/7", "dd97", "dd137"})
    CHECK(wavelet_name(parse_wavelet(name)) == std::string(name));
  CHECK_THROWS_WITH(parse_wavelet("db4"), Contains("db4") && Contains("dd137"));
}

}  // namespace
}  // namespace meniscus::sim::wavelet
