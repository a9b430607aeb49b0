#pragma once
// A shipped scene captured headless after `frames` frames on the CPU backend with validation
// on, and checked against its golden (image_compare.h).
#include <cstdint>
#include <string>

#include "engine/app/capture.h"

namespace meniscus::testing {

// `scene` relative to the source root.
CaptureResult capture_scene(const char* scene, uint32_t frames, uint32_t width = 320, uint32_t height = 240);

// capture_scene at 320 x 240: no validation error, and the image matches `golden`.
void check_scene_golden(const char* scene, const std::string& golden, uint32_t frames);

}  // namespace meniscus::testing
