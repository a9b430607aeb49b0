// The refraction scenes through the frame graph: the stage traces on the CPU into its shared
// buffer, raytrace.composite draws it and the tonemap finishes it. The CPU tracer is
// deterministic for any thread count, so each frame is a function of the scene and its time.
#include <catch2/catch.hpp>

#include "engine/app/capture.h"
#include "tests/render/image_compare.h"
#include "tests/render/scene_golden.h"
#include "tests/render/scene_variant.h"

namespace meniscus {
namespace {

CaptureResult capture_scene(const char* scene, uint32_t frames) { return testing::capture_scene(scene, frames, 320, 180); }

CaptureResult capture_pool(uint32_t frames) { return capture_scene("scenes/caustics_pool.toml", frames); }

}  // namespace

TEST_CASE("caustics pool scene matches its golden, moves with time and is the same every run",
          "[render][raytrace][slow]") {
  const CaptureResult third = capture_pool(3);
  CHECK(third.validation_errors == 0);
  const std::string failure = testing::check_golden("caustics_pool", third.image);
  INFO(failure);
  CHECK(failure.empty());
  CHECK(capture_pool(3).image.pixels == third.image.pixels);
  CHECK(capture_pool(1).image.pixels != third.image.pixels);  // the waves, and their caustic, moved
}

}  // namespace meniscus

namespace meniscus {

// [slow]: the sanitized run takes its trace, photon map and triangle kd-tree rebuilds in the
// caustics pool's physics test and the kd-tree tests.
TEST_CASE("refracting Lucy scene matches its golden", "[render][raytrace][data][slow]") {
  const CaptureResult result = capture_scene("scenes/refracting_lucy.toml", 2);
  CHECK(result.validation_errors == 0);
  const std::string failure = testing::check_golden("refracting_lucy", result.image);
  INFO(failure);
  CHECK(failure.empty());
}

}  // namespace meniscus

namespace meniscus {

// The small dam break's stage is named "sph" (its type); these tables add to it.
constexpr const char* kTracedWater = R"(
[[stage]]
type = "levelset"
name = "surface"
particles = "sph"
mcf = 0.08
steps_per_frame = 1

[[stage]]
type = "refracting_surface"
name = "traced"
level_set = "surface"
sun_elevation_degrees = 60.0
sun_azimuth_degrees = -110.0
photons = 60000
caustic_resolution = 96
floor_tile = 0.05
image_width = 320
image_height = 240
bounces = 6
min_weight = 0.02
glass_wall = 0.005
tank_min = [0.0, 0.0, 0.0]
tank_max = [0.6, 0.3, 0.1]
eye = [0.3, 0.3, 0.62]
target = [0.3, 0.03, 0.05]
fov_y_degrees = 45.0
)";

TEST_CASE("the dam break's level-set surface ray traced every frame in its glass tank matches its golden",
          "[render][raytrace][slow]") {
  const CaptureResult result = testing::capture_variant("tests/render/scenes/dam_break_small.toml", "dam_break_traced",
                                                        kTracedWater, 20);
  CHECK(result.validation_errors == 0);
  const std::string failure = testing::check_golden("dam_break_traced", result.image);
  INFO(failure);
  CHECK(failure.empty());
}

}  // namespace meniscus
