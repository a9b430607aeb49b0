#pragma once
// A narrow-band level set from a closed triangle mesh (OBJ/PLY): distances scan-converted
// triangle by triangle into the band, signed by angle-weighted pseudo-normals, then stored as
// sorted tiles. A mesh with holes, non-manifold or inconsistently oriented edges has no
// well-defined inside: it is an InputError naming the file and how many edges are wrong.
#include <string>

#include <glm/glm.hpp>

#include "sim/common/mesh_reader.h"
#include "sim/levelset/sorted_tile_list.h"

namespace meniscus::sim::levelset {

// World placement of voxel space: voxel (i, j, k) is the point origin + (i, j, k) * voxel_size.
struct VoxelFrame {
  glm::vec3 origin{0.0f};
  float voxel_size = 1.0f;
  glm::ivec3 dims{0};  // voxels covering the mesh and its margin
};

// A frame with `resolution` voxels along the mesh's longest side plus `margin` on every side.
// Throws InputError for an empty or flat mesh.
VoxelFrame fit_frame(const TriangleMesh& mesh, int resolution, int margin, const std::string& name);

// Throws InputError unless every edge is shared by exactly two triangles in opposite
// directions. `name` names the mesh in the message.
void check_closed(const TriangleMesh& mesh, const std::string& name);

struct MeshLevelSetStats {
  size_t band_voxels = 0;  // voxels whose distance was computed
  size_t tiles = 0;
};

// Fills `list` (empty) with the mesh's signed distance in voxel units (negative inside),
// clamped to the list's ±γ.
MeshLevelSetStats build_from_mesh(SortedTileList& list, const TriangleMesh& mesh, const VoxelFrame& frame,
                                  const std::string& name);

}  // namespace meniscus::sim::levelset
