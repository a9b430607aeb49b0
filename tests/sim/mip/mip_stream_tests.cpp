// The streaming MIP (thesis §2.3.4): exact with every coefficient, and its error against the
// full MIP falls monotonically as the budget grows.
#include <algorithm>
#include <catch2/catch.hpp>

#include "sim/mip/coefficient_stream.h"
#include "sim/mip/mip_image_error.h"
#include "tests/sim/mip/mip_test_volumes.h"

namespace meniscus {
namespace {

using sim::mip::ViewAxis;

}  // namespace

TEST_CASE("coefficients pack and unpack losslessly at the packing's limits", "[mip]") {
  const sim::mip::PackedCoefficient c = sim::mip::pack({2047, 1234, 1023}, 65535, 7);
  CHECK(sim::mip::unpack_position(c) == glm::uvec3(2047, 1234, 1023));
  CHECK(sim::mip::unpack_value(c) == 65535);
  CHECK(sim::mip::unpack_level(c) == 7);
}

TEST_CASE("the streaming MIP with every coefficient equals the full MIP", "[mip]") {
  const sim::mip::GreyVolume volume = testing::random_grey_volume({30, 17, 22}, 7);
  const sim::mip::CoefficientStream stream =
      sim::mip::build_coefficient_stream(sim::mip::build_adjunction_pyramid(volume, 2));
  for (ViewAxis axis : {ViewAxis::X, ViewAxis::Y, ViewAxis::Z})
    CHECK(sim::mip::streaming_mip(stream, axis, uint32_t(stream.details.size())).values ==
          sim::mip::axis_mip(volume, axis).values);
}

TEST_CASE("the streaming MIP's error decreases monotonically with the budget on the CT head", "[mip][data]") {
  const sim::mip::GreyVolume head = testing::ct_head();
  const sim::mip::CoefficientStream stream =
      sim::mip::build_coefficient_stream(sim::mip::build_adjunction_pyramid(head, 3));
  REQUIRE(!stream.details.empty());
  const sim::mip::MipImage exact = sim::mip::axis_mip(head, ViewAxis::Y);
  sim::mip::MipImageError previous{UINT32_MAX, 1e300, 0.0};
  for (double fraction : {0.0, 0.01, 0.02, 0.05, 0.1, 0.2, 0.4, 0.7, 1.0}) {
    const sim::mip::MipImage image =
        sim::mip::streaming_mip(stream, ViewAxis::Y, sim::mip::detail_budget(stream.index, fraction));
    const sim::mip::MipImageError error = sim::mip::mip_image_error(image, exact);
    INFO("fraction " << fraction << ": max " << error.max << ", relative L1 " << error.relative_l1 << ", median "
                     << error.median);
    CHECK(error.relative_l1 <= previous.relative_l1);
    CHECK(error.max <= previous.max);
    // Never above the true MIP: every drawn term lies below the volume (2.10).
    for (size_t i = 0; i < image.values.size(); ++i) REQUIRE(image.values[i] <= exact.values[i]);
    if (fraction == 0.0) CHECK(error.relative_l1 > 0.0);  // the approximation alone is not exact
    if (fraction == 1.0) CHECK(error.max == 0);
    previous = error;
  }
}

TEST_CASE("the auxiliary order spends the budget well: 10% of the details beat the coarse image by far",
          "[mip][data]") {
  const sim::mip::GreyVolume head = testing::ct_head();
  const sim::mip::CoefficientStream stream =
      sim::mip::build_coefficient_stream(sim::mip::build_adjunction_pyramid(head, 3));
  const sim::mip::MipImage exact = sim::mip::axis_mip(head, ViewAxis::Z);
  const auto error_at = [&](double fraction) {
    return sim::mip::mip_image_error(
               sim::mip::streaming_mip(stream, ViewAxis::Z, sim::mip::detail_budget(stream.index, fraction)), exact)
        .relative_l1;
  };
  // Sorting is what makes a small budget useful: the same count taken in level order (the
  // stream reversed is the least useful coefficients first) must do worse.
  sim::mip::CoefficientStream reversed = stream;
  std::reverse(reversed.details.begin(), reversed.details.end());
  const double sorted = error_at(0.1);
  const double unsorted =
      sim::mip::mip_image_error(sim::mip::streaming_mip(reversed, ViewAxis::Z, sim::mip::detail_budget(reversed.index, 0.1)),
                                exact)
          .relative_l1;
  INFO("coarse " << error_at(0.0) << ", 10% sorted " << sorted << ", 10% least useful first " << unsorted);
  CHECK(sorted < 0.5 * error_at(0.0));
  CHECK(sorted < unsorted);
}

}  // namespace meniscus

namespace meniscus {

TEST_CASE("the auxiliary error left falls from 1 to 0 along the stream, and an error bound stops where it is met",
          "[mip][data]") {
  const sim::mip::CoefficientStream stream =
      sim::mip::build_coefficient_stream(sim::mip::build_adjunction_pyramid(testing::ct_head(), 3));
  const auto n = uint32_t(stream.details.size());
  REQUIRE(stream.index.removed_error.size() == size_t(n) + 1);
  CHECK(sim::mip::remaining_error(stream.index, 0) == 1.0);
  CHECK(sim::mip::remaining_error(stream.index, n) == 0.0);
  double previous = 1.0;
  for (uint32_t drawn = 0; drawn <= n; drawn += std::max(1u, n / 97)) {
    const double left = sim::mip::remaining_error(stream.index, drawn);
    REQUIRE(left <= previous);
    previous = left;
  }
  // Sorted by decreasing error: the first 5% of the details carry far more than 5% of it.
  CHECK(sim::mip::remaining_error(stream.index, sim::mip::detail_budget(stream.index, 0.05)) < 0.8);
  for (double bound : {0.5, 0.1, 0.01, 1e-4}) {
    INFO("bound " << bound);
    const uint32_t count = sim::mip::detail_count_for_error(stream.index, bound);
    CHECK(sim::mip::remaining_error(stream.index, count) <= bound);
    REQUIRE(count > 0);
    CHECK(sim::mip::remaining_error(stream.index, count - 1) > bound);  // the fewest that meet it
  }
  CHECK(sim::mip::detail_count_for_error(stream.index, 1.0) == 0);
  CHECK(sim::mip::detail_count_for_error(stream.index, 0.0) <= n);
  CHECK(sim::mip::remaining_error(stream.index, sim::mip::detail_count_for_error(stream.index, 0.0)) == 0.0);
}

}  // namespace meniscus
