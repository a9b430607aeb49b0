// Headless render tests on whatever Vulkan device answers (lavapipe here), validation on.
#include <catch2/catch.hpp>

#include <filesystem>

#include "engine/app/capture.h"
#include "tests/render/image_compare.h"
#include "tests/render/scene_variant.h"

namespace meniscus {
namespace {

std::filesystem::path source(const char* relative) {
  return std::filesystem::path(MENISCUS_SOURCE_DIR) / relative;
}

CaptureResult render_file(const std::filesystem::path& scene, uint32_t frames) {
  CaptureOptions options;
  options.scene = scene;
  options.width = 320;
  options.height = 200;
  options.frames = frames;
  options.sim = "cpu";
  options.validation = true;
  return capture(options);
}

CaptureResult render(const char* scene, uint32_t frames) { return render_file(source(scene), frames); }

}  // namespace

TEST_CASE("particles scene matches its golden", "[render]") {
  const CaptureResult result = render("scenes/particles.toml", 30);
  CHECK(result.validation_errors == 0);
  const std::string failure = testing::check_golden("particles", result.image);
  INFO(failure);
  CHECK(failure.empty());
}

TEST_CASE("sky and ground without particles match their golden", "[render]") {
  const CaptureResult result = render("tests/render/scenes/sky_ground.toml", 1);
  CHECK(result.validation_errors == 0);
  const std::string failure = testing::check_golden("sky_ground", result.image);
  INFO(failure);
  CHECK(failure.empty());
}

TEST_CASE("impostors occlude each other and meet the ground by depth", "[render]") {
  // Two rows of large spheres half sunk into the ground: the visible halves only show if depth
  // replacement works (a flat quad would either vanish into the ground or cover it).
  const CaptureResult result = render("tests/render/scenes/impostor_depth.toml", 1);
  CHECK(result.validation_errors == 0);
  const std::string failure = testing::check_golden("impostor_depth", result.image);
  INFO(failure);
  CHECK(failure.empty());
}

TEST_CASE("captures are deterministic", "[render]") {
  const CaptureResult a = render("scenes/particles.toml", 10);
  const CaptureResult b = render("scenes/particles.toml", 10);
  REQUIRE(a.image.pixels.size() == b.image.pixels.size());
  CHECK(a.image.pixels == b.image.pixels);
}

TEST_CASE("the golden comparison rejects a real change", "[render]") {
  // Guards the metric itself: a shifted image must fail, the same image must pass.
  const CaptureResult result = render("scenes/particles.toml", 5);
  RgbaImage shifted = result.image;
  const size_t row = size_t(shifted.width) * 4;
  std::rotate(shifted.pixels.begin(), shifted.pixels.begin() + row * 20, shifted.pixels.end());
  const testing::CompareLimits limits;
  CHECK(testing::compare_images(result.image, result.image, limits).passes(limits));
  CHECK_FALSE(testing::compare_images(shifted, result.image, limits).passes(limits));
}

}  // namespace meniscus

namespace meniscus {

TEST_CASE("CT head iso-surfaces (GPU HistoPyramid, direct draw) match their golden", "[render][histopyramid]") {
  const CaptureResult result = render("scenes/ct_head.toml", 1);
  CHECK(result.validation_errors == 0);
  const std::string failure = testing::check_golden("ct_head", result.image);
  INFO(failure);
  CHECK(failure.empty());
}

TEST_CASE("Cayley cubic iso-surface matches its golden", "[render][histopyramid]") {
  const CaptureResult result = render("scenes/cayley.toml", 1);
  CHECK(result.validation_errors == 0);
  const std::string failure = testing::check_golden("cayley", result.image);
  INFO(failure);
  CHECK(failure.empty());
}

TEST_CASE("CT head from its wavelet coefficients: coarse first, the full scan's surfaces once every level arrived",
          "[render][histopyramid][wavelet]") {
  // Frame 1 of the scene: three levels of CDF 9/7 detail withheld.
  const CaptureResult coarse = render("scenes/ct_head_wavelet.toml", 1);
  CHECK(coarse.validation_errors == 0);
  std::string failure = testing::check_golden("ct_head_wavelet_coarse", coarse.image);
  INFO(failure);
  CHECK(failure.empty());

  // The plain CT head scene refined a level per frame: by frame 4 every level has arrived and
  // the image is the full scan's golden; the coarse one is not.
  const CaptureResult refined = render_file(
      testing::write_variant("scenes/ct_head.toml", "ct_head_refined",
                             "[pass.surface.preview]\nwavelet = \"9/7\"\nlevels = 3\nframes_per_level = 1\n"),
      4);
  CHECK(refined.validation_errors == 0);
  failure = testing::check_golden("ct_head", refined.image);
  INFO(failure);
  CHECK(failure.empty());
  CHECK_FALSE(testing::check_golden("ct_head", coarse.image).empty());
}

}  // namespace meniscus
