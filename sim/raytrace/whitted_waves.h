#pragma once
// The CPU tracer's order of the Whitted paths (whitted_path.h): a tile's paths breadth first, a
// bounce at a time, so that the intersector gets each wave's rays together and may trace them in
// packets (kdtree/triangle_packet.h). The first wave is the tile's primary rays in blocks of
// 4 x 4 pixels; each later one the reflected, then the refracted, branches of the last, in
// their parents' order: rays that sit together in a wave started near each other and head
// alike. Every branch is resolved by the same code as the depth-first paths of the CUDA tracer;
// only the order in which a pixel's terms are added differs.
#include <cstdint>
#include <glm/vec3.hpp>
#include <vector>

#include "sim/raytrace/intersector.h"
#include "sim/raytrace/whitted_path.h"

namespace meniscus::sim::raytrace {

class WhittedWaves {
 public:
  // A wave at most this long by default: beyond it (2^bounces branches a pixel without
  // min_weight), a branch is followed depth first on its own, so memory stays bounded at any
  // bounce limit.
  static constexpr size_t kMaxWave = size_t(1) << 15;

  WhittedWaves(const Intersector& surface, const PathScene& scene, const PrimaryRays& rays, size_t max_wave = kMaxWave);

  // Pixels [x0, x1) x [y0, y1) into `image` (rays.width wide, row 0 at the top).
  void trace_tile(uint32_t x0, uint32_t x1, uint32_t y0, uint32_t y1, glm::vec3* image);

  const PathCounts& counts() const { return path_.counts; }

 private:
  using Path = WhittedPath<IntersectorSurface>;

  // A branch still to trace, and the tile pixel whose sum it adds to.
  struct PixelBranch {
    Path::Branch branch;
    uint32_t pixel;
  };

  void resolve_wave();

  const Intersector& surface_;
  const PrimaryRays& rays_;
  size_t max_wave_;
  Path path_;
  std::vector<PixelBranch> wave_, reflected_, refracted_;
  std::vector<Ray> batch_;
  std::vector<RayHit> hits_;
  std::vector<glm::vec3> sums_;
};

}  // namespace meniscus::sim::raytrace
