#include "sim/mip/axis_mip.h"

#include <algorithm>

namespace meniscus::sim::mip {
namespace {

MipImage blank(glm::uvec2 size) { return {size.x, size.y, std::vector<uint32_t>(size_t(size.x) * size.y, 0)}; }

MipImage project_level(const PyramidLevel& level, ViewAxis axis) {
  MipImage image = blank(image_size(level.dims, axis));
  for (uint32_t z = 0; z < level.dims.z; ++z)
    for (uint32_t y = 0; y < level.dims.y; ++y)
      for (uint32_t x = 0; x < level.dims.x; ++x) {
        const glm::uvec2 uv = image_coordinates({x, y, z}, axis);
        uint32_t& pixel = image.values[size_t(uv.y) * image.width + uv.x];
        pixel = std::max<uint32_t>(pixel, level.at(x, y, z));
      }
  return image;
}

// 2-D EXPAND with the projected structuring element, the 2x2 square: pixel replication.
MipImage expand(const MipImage& coarse) {
  MipImage fine = blank({coarse.width * 2, coarse.height * 2});
  for (uint32_t v = 0; v < fine.height; ++v)
    for (uint32_t u = 0; u < fine.width; ++u) fine.values[size_t(v) * fine.width + u] = coarse.at(u / 2, v / 2);
  return fine;
}

}  // namespace

std::optional<ViewAxis> view_axis_from_name(const std::string& name) {
  if (name == "x") return ViewAxis::X;
  if (name == "y") return ViewAxis::Y;
  if (name == "z") return ViewAxis::Z;
  return std::nullopt;
}

glm::uvec2 image_coordinates(glm::uvec3 p, ViewAxis axis) {
  switch (axis) {
    case ViewAxis::X:
      return {p.y, p.z};
    case ViewAxis::Y:
      return {p.x, p.z};
    case ViewAxis::Z:
      break;
  }
  return {p.x, p.y};
}

glm::uvec2 image_size(glm::uvec3 dims, ViewAxis axis) { return image_coordinates(dims, axis); }

MipImage axis_mip(const GreyVolume& volume, ViewAxis axis) {
  return project_level(PyramidLevel{volume.dims, volume.values}, axis);
}

MipImage multiresolution_mip(const AdjunctionPyramid& pyramid, ViewAxis axis) {
  MipImage image = project_level(pyramid.approximation, axis);
  for (uint32_t j = pyramid.levels; j-- > 0;) {
    image = expand(image);
    const MipImage detail = project_level(pyramid.details[j], axis);
    for (size_t i = 0; i < image.values.size(); ++i) image.values[i] = std::max(image.values[i], detail.values[i]);
  }
  const glm::uvec2 size = image_size(pyramid.dims, axis);
  return crop(image, size.x, size.y);
}

MipImage crop(const MipImage& image, uint32_t width, uint32_t height) {
  MipImage out = blank({width, height});
  for (uint32_t v = 0; v < height; ++v)
    std::copy_n(&image.values[size_t(v) * image.width], width, &out.values[size_t(v) * width]);
  return out;
}

}  // namespace meniscus::sim::mip
