#include "tools/bench/mip_bench_volume.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>

namespace meniscus::bench {
namespace mip_bench_volume {
namespace {

// Index of the view's u, v and depth axes in (x, y, z), as sim::mip::image_coordinates.
glm::uvec3 view_axes(sim::mip::ViewAxis axis) {
  switch (axis) {
    case sim::mip::ViewAxis::X:
      return {1, 2, 0};
    case sim::mip::ViewAxis::Y:
      return {0, 2, 1};
    case sim::mip::ViewAxis::Z:
      break;
  }
  return {0, 1, 2};
}

// Source coordinate of target sample i when n samples become m (centres aligned), and its
// two neighbours with the weight of the upper one.
struct Tap {
  uint32_t low, high;
  float weight;
};
Tap tap(uint32_t i, uint32_t n, uint32_t m) {
  const float s = std::clamp((float(i) + 0.5f) * float(n) / float(m) - 0.5f, 0.0f, float(n - 1));
  const uint32_t low = uint32_t(s);
  return {low, std::min(low + 1, n - 1), s - float(low)};
}

}  // namespace
}  // namespace mip_bench_volume

sim::mip::GreyVolume resample_for_frame(const sim::mip::GreyVolume& volume, sim::mip::ViewAxis axis, uint32_t width,
                                        uint32_t height, uint32_t max_depth) {
  using namespace mip_bench_volume;  // this file's helpers
  const glm::uvec3 a = view_axes(axis);
  const glm::uvec3 n = volume.dims;
  glm::uvec3 m{0};
  m[a.x] = width;
  m[a.y] = height;
  m[a.z] = std::clamp(uint32_t(std::lround(double(n[a.z]) * width / n[a.x])), 1u, std::max(1u, max_depth));
  sim::mip::GreyVolume out;
  out.dims = m;
  out.offset = volume.offset;
  for (int k = 0; k < 3; ++k) out.spacing[k] = volume.spacing[k] * float(n[k]) / float(m[k]);
  out.values.resize(size_t(m.x) * m.y * m.z);
  tbb::parallel_for(uint32_t(0), m.z, [&](uint32_t z) {
    const Tap tz = tap(z, n.z, m.z);
    for (uint32_t y = 0; y < m.y; ++y) {
      const Tap ty = tap(y, n.y, m.y);
      for (uint32_t x = 0; x < m.x; ++x) {
        const Tap tx = tap(x, n.x, m.x);
        auto at = [&](uint32_t xi, uint32_t yi, uint32_t zi) { return float(volume.at(xi, yi, zi)); };
        auto row = [&](uint32_t yi, uint32_t zi) {
          return at(tx.low, yi, zi) + tx.weight * (at(tx.high, yi, zi) - at(tx.low, yi, zi));
        };
        auto plane = [&](uint32_t zi) { return row(ty.low, zi) + ty.weight * (row(ty.high, zi) - row(ty.low, zi)); };
        const float value = plane(tz.low) + tz.weight * (plane(tz.high) - plane(tz.low));
        out.values[out.index(x, y, z)] = uint16_t(std::lround(value));
      }
    }
  });
  return out;
}

}  // namespace meniscus::bench
