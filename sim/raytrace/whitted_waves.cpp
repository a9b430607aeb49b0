// WhittedWaves (whitted_waves.h).
#include "sim/raytrace/whitted_waves.h"

#include <algorithm>

namespace meniscus::sim::raytrace {

WhittedWaves::WhittedWaves(const Intersector& surface, const PathScene& scene, const PrimaryRays& rays, size_t max_wave)
    : surface_(surface), rays_(rays), max_wave_(max_wave), path_({&surface}, scene) {}

void WhittedWaves::trace_tile(uint32_t x0, uint32_t x1, uint32_t y0, uint32_t y1, glm::vec3* image) {
  constexpr uint32_t kBlock = 4;
  const uint32_t width = x1 - x0, n = rays_.supersample;
  sums_.assign(size_t(width) * (y1 - y0), glm::vec3(0.0f));
  wave_.clear();
  for (uint32_t by = y0; by < y1; by += kBlock)
    for (uint32_t bx = x0; bx < x1; bx += kBlock)
      for (uint32_t y = by; y < std::min(by + kBlock, y1); ++y)
        for (uint32_t x = bx; x < std::min(bx + kBlock, x1); ++x)
          for (uint32_t sy = 0; sy < n; ++sy)
            for (uint32_t sx = 0; sx < n; ++sx)
              wave_.push_back({Path::primary(rays_.through(x, y, sx, sy)), (y - y0) * width + (x - x0)});
  while (!wave_.empty()) resolve_wave();
  for (uint32_t y = y0; y < y1; ++y)
    for (uint32_t x = x0; x < x1; ++x)
      image[size_t(y) * rays_.width + x] = sums_[size_t(y - y0) * width + (x - x0)] / float(n * n);
}

void WhittedWaves::resolve_wave() {
  batch_.resize(wave_.size());
  hits_.resize(wave_.size());
  for (size_t i = 0; i < wave_.size(); ++i) batch_[i] = wave_[i].branch.ray;
  surface_.closest_batch(batch_, hits_);
  reflected_.clear();
  refracted_.clear();
  for (size_t i = 0; i < wave_.size(); ++i) {
    const PixelBranch& parent = wave_[i];
    Path::Branch children[Path::kSplit];
    int count = 0;
    bool hit = false;
    sums_[parent.pixel] += path_.resolve(parent.branch, hits_[i], children, count, &hit);
    if (parent.branch.depth == 0) path_.counts.hits += hit;
    for (int k = 0; k < count; ++k) {
      if (reflected_.size() + refracted_.size() < max_wave_) {
        // The branch that stays in its parent's medium is the reflected one, but where a mesh's
        // faces name other media: that only orders the wave, it changes no pixel.
        (children[k].medium == parent.branch.medium ? reflected_ : refracted_).push_back({children[k], parent.pixel});
        continue;
      }
      bool primary_hit = false;  // only primary branches report it
      sums_[parent.pixel] += path_.follow_depth_first(children[k], &primary_hit);
    }
  }
  wave_.swap(reflected_);
  wave_.insert(wave_.end(), refracted_.begin(), refracted_.end());
}

}  // namespace meniscus::sim::raytrace
