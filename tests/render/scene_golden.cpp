#include "tests/render/scene_golden.h"

#include <catch2/catch.hpp>

#include "tests/render/image_compare.h"

namespace meniscus::testing {

CaptureResult capture_scene(const char* scene, uint32_t frames, uint32_t width, uint32_t height) {
  CaptureOptions options;
  options.scene = std::filesystem::path(MENISCUS_SOURCE_DIR) / scene;
  options.width = width;
  options.height = height;
  options.frames = frames;
  options.sim = "cpu";
  options.validation = true;
  return capture(options);
}

void check_scene_golden(const char* scene, const std::string& golden, uint32_t frames) {
  const CaptureResult result = capture_scene(scene, frames);
  CHECK(result.validation_errors == 0);
  const std::string failure = check_golden(golden, result.image);
  INFO(failure);
  CHECK(failure.empty());
}

}  // namespace meniscus::testing
