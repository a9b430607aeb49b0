#include "tests/render/image_compare.h"

#include <algorithm>
#include <cstdlib>
#include <sstream>

namespace meniscus::testing {

bool CompareResult::passes(const CompareLimits& limits) const {
  return same_size && mean_abs_diff <= limits.max_mean_abs_diff &&
         changed_share <= limits.max_changed_share;
}

std::string CompareResult::describe(const CompareLimits& limits) const {
  if (!same_size) return "image sizes differ";
  std::ostringstream out;
  out << "mean |diff| " << mean_abs_diff << " (limit " << limits.max_mean_abs_diff << "), changed pixels "
      << changed_share * 100.0 << "% (limit " << limits.max_changed_share * 100.0 << "%, threshold "
      << int(limits.pixel_threshold) << ")";
  return out.str();
}

CompareResult compare_images(const RgbaImage& actual, const RgbaImage& expected,
                             const CompareLimits& limits) {
  CompareResult result;
  result.same_size = actual.width == expected.width && actual.height == expected.height &&
                     actual.pixels.size() == expected.pixels.size();
  if (!result.same_size) return result;
  result.difference = {actual.width, actual.height, std::vector<uint8_t>(actual.pixels.size())};
  const size_t pixel_count = size_t(actual.width) * actual.height;
  uint64_t total = 0;
  size_t changed = 0;
  for (size_t p = 0; p < pixel_count; ++p) {
    int largest = 0;
    for (int c = 0; c < 4; ++c) {
      const int d = std::abs(int(actual.pixels[p * 4 + c]) - int(expected.pixels[p * 4 + c]));
      total += d;
      largest = std::max(largest, d);
    }
    const bool is_changed = largest > limits.pixel_threshold;
    changed += is_changed;
    uint8_t* out = &result.difference.pixels[p * 4];
    const uint8_t grey = uint8_t(std::min(255, largest * 4));
    out[0] = is_changed ? 255 : grey;
    out[1] = is_changed ? 0 : grey;
    out[2] = is_changed ? 0 : grey;
    out[3] = 255;
  }
  result.mean_abs_diff = double(total) / double(pixel_count * 4);
  result.changed_share = double(changed) / double(pixel_count);
  return result;
}

std::string check_golden(const std::string& name, const RgbaImage& actual, const CompareLimits& limits) {
  const std::filesystem::path golden = std::filesystem::path(MENISCUS_SOURCE_DIR) / "tests/render/goldens" / (name + ".png");
  const char* update = std::getenv("MENISCUS_UPDATE_GOLDENS");
  if (update && std::string(update) == "1") {
    write_png(golden, actual);
    return {};
  }
  if (!std::filesystem::exists(golden))
    return "no golden " + golden.string() + " (run tools/update-goldens to create it deliberately)";
  const RgbaImage expected = read_png(golden);
  const CompareResult result = compare_images(actual, expected, limits);
  if (result.passes(limits)) return {};
  const std::filesystem::path failures = std::filesystem::path(MENISCUS_BINARY_DIR) / "render-failures";
  write_png(failures / (name + ".actual.png"), actual);
  write_png(failures / (name + ".expected.png"), expected);
  if (result.same_size) write_png(failures / (name + ".diff.png"), result.difference);
  return name + ": " + result.describe(limits) + "; images in " + failures.string();
}

}  // namespace meniscus::testing
