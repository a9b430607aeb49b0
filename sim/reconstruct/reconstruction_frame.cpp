#include "sim/reconstruct/reconstruction_frame.h"

#include <cmath>
#include <string>

#include "engine/core/error.h"
#include "sim/levelset/sorted_tile_list.h"

namespace meniscus::sim::reconstruct {

ReconstructionFrame fit_reconstruction_frame(std::span<const glm::vec3> points, int coarsest, int finest,
                                             const char* what, double padding) {
  if (points.empty()) throw InputError(std::string(what) + ": no points to reconstruct from");
  glm::dvec3 lo(INFINITY), hi(-INFINITY);
  for (const glm::vec3& p : points) {
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
      throw InputError(std::string(what) + ": a point has a non-finite coordinate");
    lo = glm::min(lo, glm::dvec3(p));
    hi = glm::max(hi, glm::dvec3(p));
  }
  const glm::dvec3 extent = hi - lo;
  const double longest = std::max(extent.x, std::max(extent.y, extent.z));
  if (!(longest > 0.0)) throw InputError(std::string(what) + ": all points coincide; there is no surface to reconstruct");
  ReconstructionFrame f;
  f.cube_side = longest * (1.0 + 2.0 * padding);
  // On the lattice of finest voxels (world = index * h_D), so a .vdb of the result needs only an
  // integer voxel offset.
  f.cube_origin = glm::floor((0.5 * (lo + hi) - 0.5 * f.cube_side) / (f.cube_side / double(1 << finest))) *
                  (f.cube_side / double(1 << finest));
  f.coarsest = coarsest;
  f.finest = finest;
  f.margin = levelset::kTileSide;
  f.box_min = lo;
  f.box_max = hi;
  return f;
}

}  // namespace meniscus::sim::reconstruct
