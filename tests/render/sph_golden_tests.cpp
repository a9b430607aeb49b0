// Headless goldens of the SPH stage feeding the renderer: the small dam break of
// tests/render/scenes/dam_break_small.toml at a fixed frame, as impostors and through the fluid
// chain. The CPU backend is bit-identical for any thread count, so the image is a function of
// the scene alone.
#include <catch2/catch.hpp>

#include "engine/app/capture.h"
#include "tests/render/image_compare.h"
#include "tests/render/scene_variant.h"

namespace meniscus {
namespace {

CaptureResult render_dam_break(const std::string& name, const std::string& pass_table) {
  return testing::capture_variant("tests/render/scenes/dam_break_small.toml", "dam_break_" + name, pass_table,
                                  testing::kDamBreakFrames);
}

void check_dam_break_golden(const std::string& name, const std::string& pass_table) {
  const CaptureResult result = render_dam_break(name, pass_table);
  CHECK(result.validation_errors == 0);
  const std::string failure = testing::check_golden(name, result.image);
  INFO(failure);
  CHECK(failure.empty());
}

}  // namespace

TEST_CASE("SPH dam break as impostors matches its golden", "[render][sph]") {
  check_dam_break_golden("sph_dam_break_particles", "[pass.particles]\nradius = 0.005\nspeed_scale = 2.0");
}

TEST_CASE("SPH dam break through the fluid chain matches its golden", "[render][sph][slow]") {
  // Absorption scaled to a 10 cm tank (water itself would look clear at this size).
  check_dam_break_golden("sph_dam_break_fluid", "[pass.fluid]\nradius = 0.008\nabsorption = [30.0, 12.0, 5.0]\nfoam = true");
}

}  // namespace meniscus
