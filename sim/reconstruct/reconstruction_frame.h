#pragma once
// Where the grids of the multiresolution levels sit in the world. The octree's root cube is the
// samples' bounding cube (slightly padded); level r divides its side into 2^r voxels. Voxel v of
// level r is the point cube_origin + (v - offset_r) h_r with h_r = side / 2^r: the offset keeps a
// margin of voxels below the cube, since tile coordinates cannot be negative, and doubles with
// the level, so voxel v of level r is voxel 2v of level r + 1 (what upsampling relies on).
// In the octree's finest-grid units the same voxel is 2^(D-r) (v - offset_r): the paper's x''.
#include <span>

#include <glm/glm.hpp>

namespace meniscus::sim::reconstruct {

struct ReconstructionFrame {
  glm::dvec3 cube_origin{0.0};
  double cube_side = 1.0;
  int coarsest = 0;      // d
  int finest = 0;        // D
  int margin = 0;        // offset at level d, voxels
  glm::dvec3 box_min{0.0}, box_max{0.0};  // the samples' bounding box

  double voxel_size(int level) const { return cube_side / double(1 << level); }
  int offset(int level) const { return margin << (level - coarsest); }
  double diagonal() const { return glm::length(box_max - box_min); }

  glm::vec3 voxel_of(glm::dvec3 world, int level) const {
    return glm::vec3((world - cube_origin) / voxel_size(level) + double(offset(level)));
  }
  glm::dvec3 world_of(glm::vec3 voxel, int level) const {
    return cube_origin + (glm::dvec3(voxel) - double(offset(level))) * voxel_size(level);
  }
  // Octree coordinates (finest-grid units, root cube [0, 2^D)) of a level-r voxel.
  glm::vec3 octree_of(glm::vec3 voxel, int level) const {
    return (voxel - float(offset(level))) * float(1 << (finest - level));
  }
  glm::vec3 octree_of_world(glm::dvec3 world) const { return glm::vec3((world - cube_origin) / voxel_size(finest)); }
};

// The frame for levels d..D around `points`: the cube is the bounding box's longest side padded
// by `padding` (a fraction) on each side, centred on the box (its corner moved down onto the
// lattice of level-D voxels), with a one-tile margin at level d.
// Throws InputError (naming `what`) for no points, non-finite points or all points coincident.
ReconstructionFrame fit_reconstruction_frame(std::span<const glm::vec3> points, int coarsest, int finest,
                                             const char* what, double padding = 0.02);

}  // namespace meniscus::sim::reconstruct
