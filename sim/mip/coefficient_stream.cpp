#include "sim/mip/coefficient_stream.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "engine/core/error.h"

namespace meniscus::sim::mip {
namespace {

struct Candidate {
  uint64_t aux;
  PackedCoefficient coefficient;
};

void draw(MipImage& image, PackedCoefficient c, ViewAxis axis) {
  const uint32_t level = unpack_level(c), size = 1u << level;
  const glm::uvec2 corner = image_coordinates(unpack_position(c), axis) * size;
  const uint32_t value = unpack_value(c);
  for (uint32_t dv = 0; dv < size; ++dv)
    for (uint32_t du = 0; du < size; ++du) {
      uint32_t& pixel = image.values[size_t(corner.y + dv) * image.width + corner.x + du];
      pixel = std::max(pixel, value);
    }
}

}  // namespace

PackedCoefficient pack(glm::uvec3 p, uint16_t value, uint32_t level) {
  return {p.x | p.y << 11 | p.z << 22, uint32_t(value) | level << 16};
}

glm::uvec3 unpack_position(PackedCoefficient c) {
  return {c.position & 0x7ffu, (c.position >> 11) & 0x7ffu, c.position >> 22};
}

CoefficientStream build_coefficient_stream(const AdjunctionPyramid& pyramid) {
  const glm::uvec3 padded = pyramid.padded_dims;
  if (padded.x > kMaxPaddedSideXY || padded.y > kMaxPaddedSideXY || padded.z > kMaxPaddedSideZ)
    throw InputError("MIP coefficient stream: the padded volume is " + std::to_string(padded.x) + " x " +
                     std::to_string(padded.y) + " x " + std::to_string(padded.z) + ", at most " +
                     std::to_string(kMaxPaddedSideXY) + " x " + std::to_string(kMaxPaddedSideXY) + " x " +
                     std::to_string(kMaxPaddedSideZ) + " fits the coefficient packing");
  CoefficientStream stream;
  stream.dims = pyramid.dims;
  stream.padded_dims = padded;
  stream.levels = pyramid.levels;
  const PyramidLevel& f_l = pyramid.approximation;
  for (uint32_t z = 0; z < f_l.dims.z; ++z)
    for (uint32_t y = 0; y < f_l.dims.y; ++y)
      for (uint32_t x = 0; x < f_l.dims.x; ++x)
        if (const uint16_t v = f_l.at(x, y, z)) stream.base.push_back(pack({x, y, z}, v, pyramid.levels));

  std::vector<Candidate> candidates;
  for (uint32_t j = 0; j < pyramid.levels; ++j) {
    const PyramidLevel& detail = pyramid.details[j];
    const PyramidLevel& opened = pyramid.expanded_approximations[j];
    for (uint32_t z = 0; z < detail.dims.z; ++z)
      for (uint32_t y = 0; y < detail.dims.y; ++y)
        for (uint32_t x = 0; x < detail.dims.x; ++x) {
          const size_t i = detail.index(x, y, z);
          if (const uint16_t v = detail.values[i])
            candidates.push_back({uint64_t(v - opened.values[i]) << (3 * j), pack({x, y, z}, v, j)});
        }
  }
  // Stable: equal errors keep level-then-position order, so the stream is deterministic.
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& a, const Candidate& b) { return a.aux > b.aux; });
  stream.details.reserve(candidates.size());
  stream.removed_error.reserve(candidates.size() + 1);
  stream.removed_error.push_back(0);
  for (const Candidate& c : candidates) {
    stream.details.push_back(c.coefficient);
    // At most 2^16 * 2^32 voxels per level, 8 levels: the sum stays far below 2^64.
    stream.removed_error.push_back(stream.removed_error.back() + c.aux);
  }
  return stream;
}

uint32_t detail_budget(const CoefficientStream& stream, double fraction) {
  return uint32_t(std::llround(std::clamp(fraction, 0.0, 1.0) * double(stream.details.size())));
}

double remaining_error(const CoefficientStream& stream, uint32_t drawn) {
  if (stream.removed_error.empty() || stream.removed_error.back() == 0) return 0.0;
  const double total = double(stream.removed_error.back());
  const size_t n = std::min<size_t>(drawn, stream.removed_error.size() - 1);
  return (total - double(stream.removed_error[n])) / total;
}

uint32_t detail_count_for_error(const CoefficientStream& stream, double bound) {
  if (stream.removed_error.empty() || stream.removed_error.back() == 0) return 0;
  // removed_error is non-decreasing: the first prefix that leaves at most `bound` (the same
  // expression as remaining_error, so the two agree to the last bit).
  const double total = double(stream.removed_error.back());
  const auto first = std::partition_point(stream.removed_error.begin(), stream.removed_error.end(),
                                          [&](uint64_t removed) { return (total - double(removed)) / total > bound; });
  return uint32_t(std::min<ptrdiff_t>(first - stream.removed_error.begin(), ptrdiff_t(stream.details.size())));
}

MipImage streaming_mip(const CoefficientStream& stream, ViewAxis axis, uint32_t detail_count) {
  const glm::uvec2 padded = image_size(stream.padded_dims, axis);
  MipImage image{padded.x, padded.y, std::vector<uint32_t>(size_t(padded.x) * padded.y, 0)};
  for (const PackedCoefficient& c : stream.base) draw(image, c, axis);
  const size_t count = std::min<size_t>(detail_count, stream.details.size());
  for (size_t i = 0; i < count; ++i) draw(image, stream.details[i], axis);
  const glm::uvec2 size = image_size(stream.dims, axis);
  return crop(image, size.x, size.y);
}

}  // namespace meniscus::sim::mip
