#pragma once
// Volumes for the MIP tests: seeded random grey levels with sparse bright spots (so the
// opening misses some and the details are not all zero), and the CT head from ../shared/data.
#include <random>

#include "engine/core/data_files.h"
#include "sim/histopyramid/volume_io.h"
#include "sim/mip/grey_volume.h"

namespace meniscus::testing {

inline sim::mip::GreyVolume random_grey_volume(glm::uvec3 dims, uint32_t seed) {
  sim::mip::GreyVolume v;
  v.dims = dims;
  v.values.resize(size_t(dims.x) * dims.y * dims.z);
  std::mt19937 rng(seed);
  for (uint16_t& value : v.values) value = uint16_t(rng() % 50 == 0 ? 1000 + rng() % 3000 : rng() % 200);
  return v;
}

inline sim::mip::GreyVolume ct_head() {
  return sim::mip::to_grey_levels(sim::load_volume(find_data_file("vtk-data/headsq/quarter.nhdr").string()));
}

}  // namespace meniscus::testing
