// Headless goldens of level sets drawn by the HistoPyramid surface pass, from the shipped
// scenes: Lucy scan-converted into a sorted tile list and shrinking under mean-curvature flow a
// few frames in (mesh conversion, evolution and the per-frame volume upload together), and the
// bunny's and Lucy's points reconstructed when their scenes load; Lucy sculpted by scripted
// brushes and the CT head's bone segmented from seeds, both a few dozen frames in.
#include <catch2/catch.hpp>

#include "engine/app/capture.h"
#include "tests/render/image_compare.h"

namespace meniscus {
namespace {

void check_scene_golden(const char* scene, const std::string& golden, uint32_t frames) {
  CaptureOptions options;
  options.scene = std::filesystem::path(MENISCUS_SOURCE_DIR) / scene;
  options.width = 320;
  options.height = 240;
  options.frames = frames;
  options.sim = "cpu";
  options.validation = true;
  const CaptureResult result = capture(options);
  CHECK(result.validation_errors == 0);
  const std::string failure = testing::check_golden(golden, result.image);
  INFO(failure);
  CHECK(failure.empty());
}

}  // namespace

TEST_CASE("Lucy collapsing under mean-curvature flow matches its golden", "[render][levelset]") {
  check_scene_golden("scenes/lucy_collapse.toml", "levelset_lucy_collapse", 12);
}

TEST_CASE("Lucy sculpted by scripted brush strokes matches its golden", "[render][levelset]") {
  check_scene_golden("scenes/sculpt_lucy.toml", "levelset_sculpt_lucy", 40);
}

TEST_CASE("the CT head's bone segmented live from seeds matches its golden", "[render][levelset]") {
  check_scene_golden("scenes/segment_head.toml", "levelset_segment_head", 40);
}

TEST_CASE("the bunny's points reconstructed as a level set match their golden", "[render][levelset]") {
  check_scene_golden("scenes/reconstruct_bunny.toml", "levelset_reconstruct_bunny", 1);
}

TEST_CASE("Lucy's points reconstructed as a level set match their golden", "[render][levelset]") {
  check_scene_golden("scenes/reconstruct.toml", "levelset_reconstruct_lucy", 1);
}

}  // namespace meniscus
