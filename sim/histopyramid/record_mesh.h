#pragma once
// The CPU reference for cube records (cube_record.h): the records of one frame triangulated
// by the marching-cubes tables (mc_tables.h) into an indexed mesh with shared vertices. The
// Vulkan record HistoPyramid (passes/surface/record_pyramid_gpu.h) is checked against it, and
// its watertightness is what the records' quantisation promises.
//
// Per record, everything comes from its 15 bytes: the vertex on a crossed edge by linear
// interpolation of the two decoded corner values, the normal from the gradient of the
// trilinear interpolant of the eight decoded corners (values grow outwards, so the gradient
// is the outward normal). A vertex shared by several cells gets the sum of their gradients.
#include <glm/glm.hpp>

#include "sim/histopyramid/cube_record.h"
#include "sim/histopyramid/indexed_mesh.h"

namespace meniscus::sim {

// Gradient at local point p in [0, 1]^3 of the trilinear interpolant of corner values f[c]
// (corner c at (c & 1, c >> 1 & 1, c >> 2 & 1)), in voxel units.
glm::vec3 trilinear_gradient(const float f[8], glm::vec3 p);

// Record position p lands at `origin + voxel_size * p`.
IndexedMesh extract_record_mesh(const CubeRecordSet& set, glm::vec3 origin, float voxel_size);

// The number of triangles the records make (their cases' triangle counts summed).
uint64_t record_triangle_count(const CubeRecordSet& set);

}  // namespace meniscus::sim
