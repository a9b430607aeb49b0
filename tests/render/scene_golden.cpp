#include "tests/render/scene_golden.h"

#include <catch2/catch.hpp>

#include "engine/app/capture.h"
#include "tests/render/image_compare.h"

namespace meniscus::testing {

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
  const std::string failure = check_golden(golden, result.image);
  INFO(failure);
  CHECK(failure.empty());
}

}  // namespace meniscus::testing
