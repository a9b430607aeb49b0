// Percentiles against numpy.percentile (numpy 1.24, default method 'linear'), computed outside
// this code with /usr/bin/python3 and pasted here.
#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>

#include "engine/profile/stats.h"

namespace meniscus::profile {

TEST_CASE("summary matches numpy on a small sample", "[profile][stats]") {
  // x = [3,1,4,1,5,9,2,6,5,3,5]; np.percentile(x, [50, 95, 99]) -> [4.0, 7.5, 8.7]; np.mean(x) -> 4.0
  const Summary s = summarize({3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5});
  CHECK(s.count == 11);
  CHECK(s.min == 1.0);
  CHECK(s.max == 9.0);
  CHECK(s.median == Approx(4.0));
  CHECK(s.p95 == Approx(7.5));
  CHECK(s.p99 == Approx(8.7));
  CHECK(s.mean == Approx(4.0));
}

TEST_CASE("summary matches numpy on an even count (median between two ranks)", "[profile][stats]") {
  // z = [0.5, 2.25, 1.0, 8.0]; np.percentile(z, [50, 95, 99]) -> [1.625, 7.1375, 7.8275]; np.mean(z) -> 2.9375
  const Summary s = summarize({0.5, 2.25, 1.0, 8.0});
  CHECK(s.median == Approx(1.625).epsilon(1e-14));
  CHECK(s.p95 == Approx(7.1375).epsilon(1e-14));
  CHECK(s.p99 == Approx(7.8275).epsilon(1e-14));
  CHECK(s.mean == Approx(2.9375).epsilon(1e-14));
}

TEST_CASE("summary matches numpy on frame times with an outlier", "[profile][stats]") {
  // w = [16.6, 17.1, 16.9, 33.4, 16.7, 16.8]
  // np.percentile(w, [0, 50, 95, 99, 100]) -> [16.6, 16.85, 29.325, 32.585, 33.4]; np.mean(w) -> 19.583333333333332
  const Summary s = summarize({16.6, 17.1, 16.9, 33.4, 16.7, 16.8});
  CHECK(s.min == 16.6);
  CHECK(s.median == Approx(16.85).epsilon(1e-12));
  CHECK(s.p95 == Approx(29.325).epsilon(1e-12));
  CHECK(s.p99 == Approx(32.585).epsilon(1e-12));
  CHECK(s.max == 33.4);
  CHECK(s.mean == Approx(19.583333333333332).epsilon(1e-12));
}

TEST_CASE("summary matches numpy on 200 samples", "[profile][stats]") {
  // y = [(i % 17) * 0.37 + i * 0.01 for i in range(200)]
  // np.percentile(y, [50, 95, 99]) -> [3.91, 6.892, 7.4417]; np.mean(y) -> 3.9069
  std::vector<double> y;
  for (int i = 0; i < 200; ++i) y.push_back((i % 17) * 0.37 + i * 0.01);
  const Summary s = summarize(y);
  CHECK(s.count == 200);
  CHECK(s.median == Approx(3.91).epsilon(1e-12));
  CHECK(s.p95 == Approx(6.892).epsilon(1e-12));
  CHECK(s.p99 == Approx(7.4417).epsilon(1e-12));
  CHECK(s.mean == Approx(3.9069).epsilon(1e-12));
}

TEST_CASE("percentile_sorted ends and clamping", "[profile][stats]") {
  const std::vector<double> sorted = {1.0, 2.0, 4.0};
  CHECK(percentile_sorted(sorted, 0.0) == 1.0);
  CHECK(percentile_sorted(sorted, 100.0) == 4.0);
  CHECK(percentile_sorted(sorted, 75.0) == Approx(3.0));  // rank 1.5
  CHECK(percentile_sorted(sorted, 150.0) == 4.0);
  CHECK(std::isnan(percentile_sorted({}, 50.0)));
}

TEST_CASE("summary of one and of no samples", "[profile][stats]") {
  const Summary one = summarize({2.5});
  CHECK(one.count == 1);
  CHECK(one.min == 2.5);
  CHECK(one.median == 2.5);
  CHECK(one.p99 == 2.5);
  CHECK(one.max == 2.5);
  // No samples: NaN, never a zero that would read as "took no time".
  const Summary none = summarize({});
  CHECK(none.count == 0);
  CHECK(std::isnan(none.min));
  CHECK(std::isnan(none.median));
  CHECK(std::isnan(none.p95));
  CHECK(std::isnan(none.p99));
  CHECK(std::isnan(none.max));
  CHECK(std::isnan(none.mean));
}

TEST_CASE("a NaN sample is refused", "[profile][stats]") {
  CHECK_THROWS_AS(summarize({1.0, std::nan(""), 2.0}), std::invalid_argument);
}

}  // namespace meniscus::profile
