// Headless golden of a level set drawn by the HistoPyramid surface pass: scenes/lucy_collapse.toml
// (Lucy scan-converted into a sorted tile list, shrinking under mean-curvature flow) a few
// frames in, so the image depends on the mesh conversion, the evolution and the per-frame
// volume upload together.
#include <catch2/catch.hpp>

#include "engine/app/capture.h"
#include "tests/render/image_compare.h"

namespace meniscus {

TEST_CASE("Lucy collapsing under mean-curvature flow matches its golden", "[render][levelset]") {
  CaptureOptions options;
  options.scene = std::filesystem::path(MENISCUS_SOURCE_DIR) / "scenes/lucy_collapse.toml";
  options.width = 320;
  options.height = 240;
  options.frames = 12;
  options.sim = "cpu";
  options.validation = true;
  const CaptureResult result = capture(options);
  CHECK(result.validation_errors == 0);
  const std::string failure = testing::check_golden("levelset_lucy_collapse", result.image);
  INFO(failure);
  CHECK(failure.empty());
}

}  // namespace meniscus

namespace meniscus {

TEST_CASE("the bunny's points reconstructed as a level set match their golden", "[render][levelset]") {
  CaptureOptions options;
  options.scene = std::filesystem::path(MENISCUS_SOURCE_DIR) / "scenes/reconstruct_bunny.toml";
  options.width = 320;
  options.height = 240;
  options.sim = "cpu";
  options.validation = true;
  const CaptureResult result = capture(options);
  CHECK(result.validation_errors == 0);
  const std::string failure = testing::check_golden("levelset_reconstruct_bunny", result.image);
  INFO(failure);
  CHECK(failure.empty());
}

}  // namespace meniscus
