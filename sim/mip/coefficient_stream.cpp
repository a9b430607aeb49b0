#include "sim/mip/coefficient_stream.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <tbb/parallel_sort.h>

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

glm::uvec3 unpack_position(PackedCoefficient c) {
  return {c.position & 0x7ffu, (c.position >> 11) & 0x7ffu, c.position >> 22};
}

void check_packing(glm::uvec3 padded) {
  if (padded.x > kMaxPaddedSideXY || padded.y > kMaxPaddedSideXY || padded.z > kMaxPaddedSideZ)
    throw InputError("MIP coefficient stream: the padded volume is " + std::to_string(padded.x) + " x " +
                     std::to_string(padded.y) + " x " + std::to_string(padded.z) + ", at most " +
                     std::to_string(kMaxPaddedSideXY) + " x " + std::to_string(kMaxPaddedSideXY) + " x " +
                     std::to_string(kMaxPaddedSideZ) + " fits the coefficient packing");
}

CoefficientStream build_coefficient_stream(const AdjunctionPyramid& pyramid) {
  check_packing(pyramid.padded_dims);
  CoefficientStream stream;
  stream.index.dims = pyramid.dims;
  stream.index.padded_dims = pyramid.padded_dims;
  stream.index.levels = pyramid.levels;
  const PyramidLevel& f_l = pyramid.approximation;
  for (uint32_t z = 0; z < f_l.dims.z; ++z)
    for (uint32_t y = 0; y < f_l.dims.y; ++y)
      for (uint32_t x = 0; x < f_l.dims.x; ++x)
        if (const uint16_t v = f_l.at(x, y, z)) stream.base.push_back(pack({x, y, z}, v, pyramid.levels));
  stream.index.base_count = uint32_t(stream.base.size());

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
  // A total order (ties by level, then position: the order the candidates were gathered in), so
  // the parallel sort gives what a stable sort by error would.
  tbb::parallel_sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
    if (a.aux != b.aux) return a.aux > b.aux;
    const uint32_t level_a = unpack_level(a.coefficient), level_b = unpack_level(b.coefficient);
    if (level_a != level_b) return level_a < level_b;
    return a.coefficient.position < b.coefficient.position;
  });
  stream.details.reserve(candidates.size());
  std::vector<uint64_t>& removed = stream.index.removed_error;
  removed.reserve(candidates.size() + 1);
  for (const Candidate& c : candidates) {
    stream.details.push_back(c.coefficient);
    // At most 2^16 * 2^32 voxels per level, 8 levels: the sum stays far below 2^64.
    removed.push_back(removed.back() + c.aux);
  }
  return stream;
}

uint32_t detail_budget(const StreamIndex& index, double fraction) {
  return uint32_t(std::llround(std::clamp(fraction, 0.0, 1.0) * double(index.detail_count())));
}

double remaining_error(const StreamIndex& index, uint32_t drawn) {
  if (index.removed_error.back() == 0) return 0.0;
  const double total = double(index.removed_error.back());
  const size_t n = std::min<size_t>(drawn, index.detail_count());
  return (total - double(index.removed_error[n])) / total;
}

uint32_t detail_count_for_error(const StreamIndex& index, double bound) {
  if (index.removed_error.back() == 0) return 0;
  // removed_error is non-decreasing: the first prefix that leaves at most `bound` (the same
  // expression as remaining_error, so the two agree to the last bit).
  const double total = double(index.removed_error.back());
  const auto first = std::partition_point(index.removed_error.begin(), index.removed_error.end(),
                                          [&](uint64_t removed) { return (total - double(removed)) / total > bound; });
  return uint32_t(std::min<ptrdiff_t>(first - index.removed_error.begin(), ptrdiff_t(index.detail_count())));
}

MipImage streaming_mip(const CoefficientStream& stream, ViewAxis axis, uint32_t detail_count) {
  const glm::uvec2 padded = image_size(stream.index.padded_dims, axis);
  MipImage image{padded.x, padded.y, std::vector<uint32_t>(size_t(padded.x) * padded.y, 0)};
  for (const PackedCoefficient& c : stream.base) draw(image, c, axis);
  const size_t count = std::min<size_t>(detail_count, stream.details.size());
  for (size_t i = 0; i < count; ++i) draw(image, stream.details[i], axis);
  const glm::uvec2 size = image_size(stream.index.dims, axis);
  return crop(image, size.x, size.y);
}

}  // namespace meniscus::sim::mip
