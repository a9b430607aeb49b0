#include "sim/histopyramid/volume.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "engine/core/error.h"

namespace meniscus::sim {

glm::vec2 Volume::range() const {
  if (values.empty()) return {0.0f, 0.0f};
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  return {*lo, *hi};
}

Volume make_field(const std::string& name, uint32_t n) {
  if (n < 2 || n > 2048) throw InputError("field " + name + ": size must be in [2, 2048], got " + std::to_string(n));
  std::function<float(float, float, float)> f;
  if (name == "cayley") f = [](float x, float y, float z) { return 1.0f - 16.0f * x * y * z - 4.0f * (x * x + y * y + z * z); };
  else if (name == "sphere") f = [](float x, float y, float z) { return 0.8f - std::sqrt(x * x + y * y + z * z); };
  else if (name == "torus")
    f = [](float x, float y, float z) {
      const float ring = std::sqrt(x * x + y * y) - 0.6f;
      return 0.25f * 0.25f - ring * ring - z * z;
    };
  else throw InputError("unknown field '" + name + "' (known: cayley, sphere, torus)");
  Volume v;
  v.dims = {n, n, n};
  v.spacing = glm::vec3(2.0f / float(n - 1));
  v.origin = glm::vec3(-1.0f);
  v.source = name + ":" + std::to_string(n);
  v.values.resize(size_t(n) * n * n);
  tbb::parallel_for(tbb::blocked_range<uint32_t>(0, n), [&](const tbb::blocked_range<uint32_t>& zs) {
    for (uint32_t z = zs.begin(); z != zs.end(); ++z)
      for (uint32_t y = 0; y < n; ++y)
        for (uint32_t x = 0; x < n; ++x) {
          auto c = [&](uint32_t i) { return 2.0f * float(i) / float(n - 1) - 1.0f; };
          v.values[v.index(x, y, z)] = f(c(x), c(y), c(z));
        }
  });
  return v;
}

}  // namespace meniscus::sim
