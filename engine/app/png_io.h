#pragma once
// 8-bit RGBA PNG files: captures, render-test goldens and their difference images.
#include <cstdint>
#include <filesystem>
#include <vector>

namespace meniscus {

struct RgbaImage {
  uint32_t width = 0;
  uint32_t height = 0;
  std::vector<uint8_t> pixels;  // row-major, top row first, 4 bytes per pixel
};

void write_png(const std::filesystem::path& path, const RgbaImage& image);
// Throws InputError naming the file when it is missing or not a PNG.
RgbaImage read_png(const std::filesystem::path& path);

}  // namespace meniscus
