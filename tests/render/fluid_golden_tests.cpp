// Headless goldens of the fluid chain: the fountain of tests/render/scenes/fluid_base.toml at a
// fixed frame, once per filter, with foam on and off, at reduced resolution and in a debug view.
// Each variant is the base scene plus one [pass.fluid] table, written to a temporary folder.
#include <catch2/catch.hpp>

#include "engine/app/capture.h"
#include "tests/render/image_compare.h"
#include "tests/render/scene_variant.h"

namespace meniscus {
namespace {

constexpr uint32_t kFountainFrames = 30;  // half a second into the fountain: stream, splash, pool

CaptureResult render_fluid(const std::string& name, const std::string& fluid_table) {
  return testing::capture_variant("tests/render/scenes/fluid_base.toml", "fluid_scene_" + name,
                                  "[pass.fluid]\nradius = 0.06\n" + fluid_table, kFountainFrames);
}

void check_fluid_golden(const std::string& name, const std::string& fluid_table) {
  const CaptureResult result = render_fluid(name, fluid_table);
  CHECK(result.validation_errors == 0);
  CHECK(result.image.width == 320);
  const std::string failure = testing::check_golden(name, result.image);
  INFO(failure);
  CHECK(failure.empty());
}

}  // namespace

TEST_CASE("fluid with curvature flow matches its golden", "[render][fluid][slow]") {
  check_fluid_golden("fluid_curvature_flow", "filter = \"curvature_flow\"\nresolution = \"full\"\nfoam = false");
}

TEST_CASE("fluid with curvature flow and foam matches its golden", "[render][fluid]") {
  check_fluid_golden("fluid_curvature_flow_foam", "filter = \"curvature_flow\"\nresolution = \"full\"\nfoam = true");
}

TEST_CASE("fluid with the bilateral filter matches its golden", "[render][fluid]") {
  check_fluid_golden("fluid_bilateral", "filter = \"bilateral\"\niterations = 2\nfoam = false");
}

TEST_CASE("fluid with the narrow-range filter matches its golden", "[render][fluid]") {
  check_fluid_golden("fluid_narrow_range", "filter = \"narrow_range\"\nfoam = false");
}

TEST_CASE("fluid at quarter resolution with silhouette upsampling matches its golden", "[render][fluid]") {
  check_fluid_golden("fluid_quarter_foam", "filter = \"curvature_flow\"\nresolution = \"quarter\"\nfoam = true");
}

TEST_CASE("fluid curvature debug view matches its golden", "[render][fluid]") {
  check_fluid_golden("fluid_debug_curvature", "filter = \"curvature_flow\"\niterations = 20\ndebug_view = \"curvature\"");
}

TEST_CASE("fluid foam changes the image and the filters differ", "[render][fluid][slow]") {
  // Guards the goldens themselves: foam and each filter must be visible in the output.
  const testing::CompareLimits limits;
  const CaptureResult plain = render_fluid("plain", "foam = false");
  const CaptureResult foam = render_fluid("foam", "foam = true");
  const CaptureResult bilateral = render_fluid("bilateral", "filter = \"bilateral\"");
  CHECK_FALSE(testing::compare_images(foam.image, plain.image, limits).passes(limits));
  CHECK(testing::compare_images(bilateral.image, plain.image, limits).mean_abs_diff > 0.05);
}

}  // namespace meniscus
