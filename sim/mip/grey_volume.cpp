#include "sim/mip/grey_volume.h"

#include <cmath>
#include <string>

#include "engine/core/error.h"

namespace meniscus::sim::mip {

GreyVolume to_grey_levels(const Volume& volume) {
  const auto fail = [&](const std::string& why) { throw InputError(volume.source + ": " + why); };
  if (volume.values.empty() || volume.dims.x == 0 || volume.dims.y == 0 || volume.dims.z == 0)
    fail("the volume is empty, a MIP needs at least one voxel");
  float low = INFINITY, high = -INFINITY;
  for (const float v : volume.values) {
    if (!std::isfinite(v)) fail("the volume holds a NaN or infinite value, a MIP needs finite values");
    low = std::min(low, v);
    high = std::max(high, v);
  }
  if (std::round(high - low) > 65535.0f)
    fail("the volume's values span " + std::to_string(high - low) + ", more than the 65535 grey levels a MIP holds");
  GreyVolume grey;
  grey.dims = volume.dims;
  grey.spacing = volume.spacing;
  grey.offset = low;
  grey.values.resize(volume.values.size());
  for (size_t i = 0; i < volume.values.size(); ++i) grey.values[i] = uint16_t(std::lround(volume.values[i] - low));
  return grey;
}

}  // namespace meniscus::sim::mip
