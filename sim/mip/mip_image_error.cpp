#include "sim/mip/mip_image_error.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

namespace meniscus::sim::mip {

MipImageError mip_image_error(const MipImage& approximate, const MipImage& exact) {
  if (approximate.width != exact.width || approximate.height != exact.height)
    throw std::invalid_argument("mip_image_error: the images differ in size");
  MipImageError error;
  std::vector<uint32_t> differences;
  double l1 = 0.0, norm = 0.0;
  for (size_t i = 0; i < exact.values.size(); ++i) {
    const uint32_t a = approximate.values[i], e = exact.values[i];
    const uint32_t d = a > e ? a - e : e - a;
    error.max = std::max(error.max, d);
    l1 += d;
    norm += e;
    if (d) differences.push_back(d);
  }
  error.relative_l1 = norm > 0.0 ? l1 / norm : 0.0;
  if (!differences.empty()) {
    const size_t mid = differences.size() / 2;
    std::nth_element(differences.begin(), differences.begin() + long(mid), differences.end());
    error.median = differences[mid];
  }
  return error;
}

}  // namespace meniscus::sim::mip
