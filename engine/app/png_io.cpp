#include "engine/app/png_io.h"

#include <png.h>

#include <cstdio>
#include <memory>

#include "engine/core/error.h"

namespace meniscus {
namespace {

struct FileCloser {
  void operator()(std::FILE* file) const { std::fclose(file); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

}  // namespace

void write_png(const std::filesystem::path& path, const RgbaImage& image) {
  if (image.pixels.size() != size_t(image.width) * image.height * 4)
    throw std::invalid_argument("write_png: pixel buffer does not match the image size");
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  png_image png{};
  png.version = PNG_IMAGE_VERSION;
  png.width = image.width;
  png.height = image.height;
  png.format = PNG_FORMAT_RGBA;
  if (!png_image_write_to_file(&png, path.c_str(), 0, image.pixels.data(), 0, nullptr))
    throw InputError(path.string() + ": cannot write PNG (" + png.message + ")");
}

RgbaImage read_png(const std::filesystem::path& path) {
  png_image png{};
  png.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&png, path.c_str()))
    throw InputError(path.string() + ": cannot read PNG (" + png.message + ")");
  png.format = PNG_FORMAT_RGBA;
  RgbaImage image;
  image.width = png.width;
  image.height = png.height;
  image.pixels.resize(PNG_IMAGE_SIZE(png));
  if (!png_image_finish_read(&png, nullptr, image.pixels.data(), 0, nullptr))
    throw InputError(path.string() + ": corrupt PNG (" + png.message + ")");
  return image;
}

}  // namespace meniscus
