#pragma once
// Golden-image comparison that tolerates rasteriser noise (a driver update moving an edge by a
// pixel) but not real changes (a pass missing, a colour shift, geometry moved).
//
// Two figures, both with stated limits:
//  - mean absolute difference over all channels of all pixels, in 8-bit steps;
//  - share of pixels whose largest channel difference exceeds `pixel_threshold`.
#include <cstdint>
#include <filesystem>
#include <string>

#include "engine/app/png_io.h"

namespace meniscus::testing {

struct CompareLimits {
  double max_mean_abs_diff = 1.0;   // 8-bit steps
  uint8_t pixel_threshold = 32;     // a channel differing by more marks the pixel as changed
  double max_changed_share = 0.005; // 0.5 % of pixels
};

struct CompareResult {
  bool same_size = false;
  double mean_abs_diff = 0.0;
  double changed_share = 0.0;
  RgbaImage difference;  // |a - b| amplified, changed pixels in red
  bool passes(const CompareLimits& limits) const;
  std::string describe(const CompareLimits& limits) const;
};

CompareResult compare_images(const RgbaImage& actual, const RgbaImage& expected,
                             const CompareLimits& limits);

// Compares `actual` with goldens/<name>.png. With MENISCUS_UPDATE_GOLDENS=1 in the environment
// it writes the golden instead (tools/update-goldens). On failure writes
// <build>/render-failures/<name>.{actual,expected,diff}.png and returns the description.
// Returns an empty string on success.
std::string check_golden(const std::string& name, const RgbaImage& actual,
                         const CompareLimits& limits = {});

}  // namespace meniscus::testing
