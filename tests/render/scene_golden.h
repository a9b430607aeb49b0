#pragma once
// A shipped scene captured headless at 320 x 240 after `frames` frames on the CPU backend, with
// validation on, against its golden (image_compare.h).
#include <cstdint>
#include <string>

namespace meniscus::testing {

void check_scene_golden(const char* scene, const std::string& golden, uint32_t frames);

}  // namespace meniscus::testing
