#include "sim/mip/adjunction_pyramid.h"

#include <algorithm>
#include <string>
#include <tbb/parallel_for.h>

#include "engine/core/error.h"

namespace meniscus::sim::mip {
namespace {

PyramidLevel reduce(const PyramidLevel& fine) {
  PyramidLevel coarse;
  coarse.dims = fine.dims / 2u;
  coarse.values.assign(size_t(coarse.dims.x) * coarse.dims.y * coarse.dims.z, 0);
  tbb::parallel_for(0u, coarse.dims.z, [&](uint32_t z) {
    for (uint32_t y = 0; y < coarse.dims.y; ++y)
      for (uint32_t x = 0; x < coarse.dims.x; ++x) {
        uint16_t low = UINT16_MAX;
        for (uint32_t c = 0; c < 8; ++c)
          low = std::min(low, fine.at(2 * x + (c & 1), 2 * y + ((c >> 1) & 1), 2 * z + (c >> 2)));
        coarse.values[coarse.index(x, y, z)] = low;
      }
  });
  return coarse;
}

PyramidLevel expand(const PyramidLevel& coarse) {
  PyramidLevel fine;
  fine.dims = coarse.dims * 2u;
  fine.values.resize(size_t(fine.dims.x) * fine.dims.y * fine.dims.z);
  tbb::parallel_for(0u, fine.dims.z, [&](uint32_t z) {
    for (uint32_t y = 0; y < fine.dims.y; ++y)
      for (uint32_t x = 0; x < fine.dims.x; ++x) fine.values[fine.index(x, y, z)] = coarse.at(x / 2, y / 2, z / 2);
  });
  return fine;
}

}  // namespace

void check_pyramid_levels(glm::uvec3 dims, uint32_t levels) {
  const uint32_t smallest = std::min({dims.x, dims.y, dims.z});
  if (levels > kMaxPyramidLevels || (uint64_t(1) << levels) > smallest)
    throw InputError("MIP pyramid: " + std::to_string(levels) +
                     " levels need every side of the volume to be at least " +
                     std::to_string(uint64_t(1) << std::min(levels, 31u)) + " voxels (and at most " +
                     std::to_string(kMaxPyramidLevels) + " levels), the smallest side has " + std::to_string(smallest));
}

glm::uvec3 padded_pyramid_dims(glm::uvec3 dims, uint32_t levels) {
  const uint32_t block = 1u << levels;
  return (dims + (block - 1)) / block * block;
}

AdjunctionPyramid build_adjunction_pyramid(const GreyVolume& volume, uint32_t levels) {
  check_pyramid_levels(volume.dims, levels);
  AdjunctionPyramid pyramid;
  pyramid.dims = volume.dims;
  pyramid.levels = levels;
  pyramid.padded_dims = padded_pyramid_dims(volume.dims, levels);

  PyramidLevel f;  // f_j, starting with the padded volume
  f.dims = pyramid.padded_dims;
  f.values.assign(size_t(f.dims.x) * f.dims.y * f.dims.z, 0);
  for (uint32_t z = 0; z < volume.dims.z; ++z)
    for (uint32_t y = 0; y < volume.dims.y; ++y)
      std::copy_n(&volume.values[volume.index(0, y, z)], volume.dims.x, &f.values[f.index(0, y, z)]);

  for (uint32_t j = 0; j < levels; ++j) {
    PyramidLevel coarse = reduce(f);
    PyramidLevel opened = expand(coarse);
    PyramidLevel detail;
    detail.dims = f.dims;
    detail.values.resize(f.values.size());
    for (size_t i = 0; i < f.values.size(); ++i) detail.values[i] = f.values[i] > opened.values[i] ? f.values[i] : 0;
    pyramid.details.push_back(std::move(detail));
    pyramid.expanded_approximations.push_back(std::move(opened));
    f = std::move(coarse);
  }
  pyramid.approximation = std::move(f);
  return pyramid;
}

PyramidLevel reconstruct(const AdjunctionPyramid& pyramid) {
  PyramidLevel f = pyramid.approximation;
  for (uint32_t j = pyramid.levels; j-- > 0;) {
    f = expand(f);
    const PyramidLevel& detail = pyramid.details[j];
    for (size_t i = 0; i < f.values.size(); ++i) f.values[i] = std::max(f.values[i], detail.values[i]);
  }
  return f;
}

}  // namespace meniscus::sim::mip
