#include "sim/wavelet/wavelet.h"

#include <cmath>

#include "engine/core/error.h"

namespace meniscus::sim::wavelet {

Wavelet parse_wavelet(std::string_view name) {
  if (name == "haar") return Wavelet::Haar;
  if (name == "5/3" || name == "53") return Wavelet::LeGall53;
  if (name == "9/7" || name == "97" || name == "cdf97") return Wavelet::Cdf97;
  if (name == "dd97") return Wavelet::DeslauriersDubuc97;
  if (name == "dd137") return Wavelet::DeslauriersDubuc137;
  throw InputError("--wavelet: unknown wavelet '" + std::string(name) + "' (expected haar, 5/3, 9/7, dd97 or dd137)");
}

const char* wavelet_name(Wavelet wavelet) {
  switch (wavelet) {
    case Wavelet::Haar:
      return "haar";
    case Wavelet::LeGall53:
      return "5/3";
    case Wavelet::DeslauriersDubuc97:
      return "dd97";
    case Wavelet::DeslauriersDubuc137:
      return "dd137";
    case Wavelet::Cdf97:
      return "9/7";
  }
  return "?";
}

std::array<uint32_t, 3> Shape::level_size(int level) const {
  std::array<uint32_t, 3> s = size;
  for (int axis = 0; axis < dimensions; ++axis)
    for (int l = 0; l < level; ++l) s[axis] = (s[axis] + 1) / 2;
  return s;
}

int max_levels(const Shape& shape) {
  int levels = 64;
  for (int axis = 0; axis < shape.dimensions; ++axis) {
    int allowed = 0;
    while (allowed < 32 && (uint64_t(1) << allowed) < shape.size[axis]) ++allowed;
    levels = std::min(levels, allowed);
  }
  return levels;
}

void check_transform(const Shape& shape, int levels, size_t sample_count) {
  static const char* const kAxis[] = {"x", "y", "z"};
  if (shape.dimensions != 2 && shape.dimensions != 3)
    throw InputError("wavelet: " + std::to_string(shape.dimensions) + " dimensions (expected 2 or 3)");
  if (shape.dimensions == 2 && shape.size[2] != 1)
    throw InputError("wavelet: a 2-D transform of data with depth " + std::to_string(shape.size[2]));
  for (int axis = 0; axis < 3; ++axis)
    if (shape.size[axis] == 0) throw InputError(std::string("wavelet: empty data (size ") + kAxis[axis] + " is 0)");
  if (sample_count != shape.count())
    throw InputError("wavelet: " + std::to_string(sample_count) + " samples for a shape of " +
                     std::to_string(shape.count()));
  if (levels < 0) throw InputError("wavelet: --levels " + std::to_string(levels) + " is negative");
  const int allowed = max_levels(shape);
  if (levels > allowed) {
    int axis = 0;
    for (int a = 1; a < shape.dimensions; ++a)
      if (shape.size[a] < shape.size[axis]) axis = a;
    throw InputError("wavelet: " + std::to_string(levels) + " levels need more than " +
                     std::to_string(uint64_t(1) << std::min(levels - 1, 62)) + " samples along every axis, but " +
                     kAxis[axis] + " has " + std::to_string(shape.size[axis]) + " (at most " + std::to_string(allowed) +
                     " levels)");
  }
}

void check_finite(const float* values, size_t count, std::string_view what) {
  for (size_t i = 0; i < count; ++i)
    if (!std::isfinite(values[i]))
      throw InputError(std::string(what) + ": sample " + std::to_string(i) + " is " +
                       (std::isnan(values[i]) ? "NaN" : "infinite") + " (a wavelet transform needs finite values)");
}

}  // namespace meniscus::sim::wavelet
