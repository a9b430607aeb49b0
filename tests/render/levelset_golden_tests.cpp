// Headless goldens of level sets drawn by the HistoPyramid surface pass, from the shipped
// scenes: Lucy scan-converted into a sorted tile list and shrinking under mean-curvature flow a
// few frames in (mesh conversion, evolution and the per-frame volume upload together), and the
// bunny's points reconstructed when its scene loads (Lucy's, to level 9, is a slow test of its
// own: levelset_slow_golden_tests.cpp); Lucy sculpted by scripted brushes and the CT head's bone
// segmented from seeds, both a few dozen frames in.
#include <catch2/catch.hpp>

#include "tests/render/scene_golden.h"

namespace meniscus {

using testing::check_scene_golden;

// [slow]: the sanitized run takes its mesh conversion and curvature flow in the level-set tests.
TEST_CASE("Lucy collapsing under mean-curvature flow matches its golden", "[render][levelset][slow]") {
  check_scene_golden("scenes/lucy_collapse.toml", "levelset_lucy_collapse", 12);
}

TEST_CASE("Lucy sculpted by scripted brush strokes matches its golden", "[render][levelset][slow]") {
  check_scene_golden("scenes/sculpt_lucy.toml", "levelset_sculpt_lucy", 40);
}

TEST_CASE("the CT head's bone segmented live from seeds matches its golden", "[render][levelset][slow]") {
  check_scene_golden("scenes/segment_head.toml", "levelset_segment_head", 40);
}

TEST_CASE("the bunny's points reconstructed as a level set match their golden", "[render][levelset][slow]") {
  check_scene_golden("scenes/reconstruct_bunny.toml", "levelset_reconstruct_bunny", 1);
}

}  // namespace meniscus
