// Percentiles against numpy.percentile (default 'linear' method), computed outside this code.
#include <catch2/catch.hpp>

#include "engine/profile/stats.h"

namespace meniscus::profile {

TEST_CASE("summary matches numpy on a small sample", "[profile][stats]") {
  // numpy: x = [3,1,4,1,5,9,2,6,5,3,5]; np.percentile(x, [50, 95, 99]) -> [4.0, 7.5, 8.7]
  const Summary s = summarize({3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5});
  CHECK(s.count == 11);
  CHECK(s.min == 1.0);
  CHECK(s.max == 9.0);
  CHECK(s.median == Approx(4.0));
  CHECK(s.p95 == Approx(7.5));
  CHECK(s.p99 == Approx(8.7));
  CHECK(s.mean == Approx(4.0));
}

TEST_CASE("summary matches numpy on 200 samples", "[profile][stats]") {
  // numpy: y = [(i % 17) * 0.37 + i * 0.01 for i in range(200)]
  //        np.percentile(y, [50, 95, 99]) -> [3.91, 6.892, 7.4417]; mean 3.9069
  std::vector<double> y;
  for (int i = 0; i < 200; ++i) y.push_back((i % 17) * 0.37 + i * 0.01);
  const Summary s = summarize(y);
  CHECK(s.median == Approx(3.91).epsilon(1e-12));
  CHECK(s.p95 == Approx(6.892).epsilon(1e-12));
  CHECK(s.p99 == Approx(7.4417).epsilon(1e-12));
  CHECK(s.mean == Approx(3.9069).epsilon(1e-12));
}

TEST_CASE("summary of one and of no samples", "[profile][stats]") {
  const Summary one = summarize({2.5});
  CHECK(one.min == 2.5);
  CHECK(one.p99 == 2.5);
  const Summary none = summarize({});
  CHECK(none.count == 0);
  CHECK(none.median == 0.0);
}

}  // namespace meniscus::profile
