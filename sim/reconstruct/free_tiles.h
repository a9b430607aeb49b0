#pragma once
// The band away from a few places kept as it is. The finest level's repass (reconstruction.h,
// finest_repasses) is meant to change the surface only where lost samples were put back:
// elsewhere the front had settled, or had only been slowed where the scan has a hole
// (gap_slowdown), and more steps there carve on through the hole into the body (the bunny's
// front paw: worst distance 0.64% -> 1.63% of the diagonal when the whole band evolved again).
// Only the free tiles are evolved (levelset::EvolutionParams::evolves): the rest of the band is
// neither gathered nor given a rate, which was half a repass's time on the bunny.
#include <span>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/levelset/tile_key.h"

namespace meniscus::sim::reconstruct {

class FreeTiles {
 public:
  // The tiles with a voxel within `radius` voxels of any of `centres` (voxels of the level).
  FreeTiles(std::span<const glm::vec3> centres, float radius);

  bool contains(levelset::TileKey key) const;
  size_t size() const { return keys_.size(); }

 private:
  std::vector<levelset::TileKey> keys_;  // increasing
};

}  // namespace meniscus::sim::reconstruct
