// The adjunction pyramid (thesis §2.3.2) and the multiresolution MIP on it (§2.3.3) against the
// full-resolution MIP: both exact, since max is.
#include <catch2/catch.hpp>
#include <cmath>

#include "engine/core/error.h"
#include "sim/mip/axis_mip.h"
#include "tests/sim/mip/mip_test_volumes.h"

namespace meniscus {
namespace {

using sim::mip::ViewAxis;

}  // namespace

TEST_CASE("the adjunction pyramid reconstructs the volume exactly, padding included", "[mip]") {
  const sim::mip::GreyVolume volume = testing::random_grey_volume({21, 16, 11}, 3);  // odd sides: padded
  for (uint32_t levels : {0u, 1u, 2u, 3u}) {
    INFO("levels " << levels);
    const sim::mip::AdjunctionPyramid pyramid = sim::mip::build_adjunction_pyramid(volume, levels);
    const sim::mip::PyramidLevel f = sim::mip::reconstruct(pyramid);
    REQUIRE(f.dims == pyramid.padded_dims);
    size_t wrong = 0;
    for (uint32_t z = 0; z < f.dims.z; ++z)
      for (uint32_t y = 0; y < f.dims.y; ++y)
        for (uint32_t x = 0; x < f.dims.x; ++x) {
          const bool inside = x < volume.dims.x && y < volume.dims.y && z < volume.dims.z;
          wrong += f.at(x, y, z) != (inside ? volume.at(x, y, z) : 0);
        }
    CHECK(wrong == 0);
  }
}

TEST_CASE("the details are what the opening lost: zero exactly where it fits", "[mip]") {
  const sim::mip::GreyVolume volume = testing::random_grey_volume({16, 16, 16}, 4);
  const sim::mip::AdjunctionPyramid pyramid = sim::mip::build_adjunction_pyramid(volume, 1);
  // Each 2x2x2 block's minimum voxel is what the opening keeps: at least one zero detail per block.
  size_t blocks_without_zero = 0, nonzero = 0;
  for (uint32_t bz = 0; bz < 8; ++bz)
    for (uint32_t by = 0; by < 8; ++by)
      for (uint32_t bx = 0; bx < 8; ++bx) {
        bool zero = false;
        for (uint32_t c = 0; c < 8; ++c) {
          const uint16_t d = pyramid.details[0].at(2 * bx + (c & 1), 2 * by + ((c >> 1) & 1), 2 * bz + (c >> 2));
          zero |= d == 0;
          nonzero += d != 0;
        }
        blocks_without_zero += !zero;
      }
  CHECK(blocks_without_zero == 0);
  CHECK(nonzero > 0);
}

TEST_CASE("the multiresolution MIP with every level equals the full MIP along each axis", "[mip]") {
  const sim::mip::GreyVolume volume = testing::random_grey_volume({37, 24, 19}, 5);
  for (ViewAxis axis : {ViewAxis::X, ViewAxis::Y, ViewAxis::Z})
    for (uint32_t levels : {1u, 2u, 4u}) {
      INFO("axis " << int(axis) << " levels " << levels);
      const sim::mip::MipImage exact = sim::mip::axis_mip(volume, axis);
      const sim::mip::MipImage multires =
          sim::mip::multiresolution_mip(sim::mip::build_adjunction_pyramid(volume, levels), axis);
      CHECK(multires.width == exact.width);
      CHECK(multires.height == exact.height);
      CHECK(multires.values == exact.values);
    }
}

TEST_CASE("the multiresolution MIP of the CT head is exact", "[mip][data]") {
  const sim::mip::GreyVolume head = testing::ct_head();
  const sim::mip::AdjunctionPyramid pyramid = sim::mip::build_adjunction_pyramid(head, 3);
  for (ViewAxis axis : {ViewAxis::X, ViewAxis::Y, ViewAxis::Z})
    CHECK(sim::mip::multiresolution_mip(pyramid, axis).values == sim::mip::axis_mip(head, axis).values);
}

TEST_CASE("bad MIP input gets one clear error", "[mip]") {
  sim::Volume volume;
  volume.source = "test.nrrd";
  CHECK_THROWS_AS(sim::mip::to_grey_levels(volume), InputError);  // empty
  volume.dims = {2, 2, 2};
  volume.values.assign(8, 1.0f);
  volume.values[3] = NAN;
  CHECK_THROWS_WITH(sim::mip::to_grey_levels(volume), Catch::Contains("test.nrrd") && Catch::Contains("NaN"));
  volume.values[3] = 1e6f;
  CHECK_THROWS_WITH(sim::mip::to_grey_levels(volume), Catch::Contains("65535"));
  const sim::mip::GreyVolume small = testing::random_grey_volume({8, 8, 3}, 1);
  CHECK_NOTHROW(sim::mip::build_adjunction_pyramid(small, 1));
  CHECK_THROWS_WITH(sim::mip::build_adjunction_pyramid(small, 2), Catch::Contains("smallest side has 3"));
}

}  // namespace meniscus
