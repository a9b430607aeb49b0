#pragma once
// The rate of pure advection, φ_t = −U·∇φ with HJ-WENO5 upwinding, for one tile four voxels (a
// row along x) at a time: the per-voxel rate of LevelSetEvolution with no other term, and the
// same numbers to the bit (weno5.h's formula on Float4 lanes). The WENO arithmetic, about
// 27 divisions a voxel, is most of an advection step; four lanes share each instruction.
#include <glm/vec3.hpp>

#include "sim/common/float4.h"
#include "sim/levelset/velocity_field.h"

namespace meniscus::sim::levelset {

#if defined(MENISCUS_HAS_FLOAT4)
// Writes the rate of every voxel of the tile at `origin` (its voxel coordinates) to `rate`
// (kTileVoxels, voxel_index order) from its halo block, and returns the largest CFL speed
// |u_x| + |u_y| + |u_z| of its voxels. A voxel flat beyond the band (flat_beyond_band) gets 0,
// without evaluating the velocity there, and no speed.
float advection_rate_rows(const float* block, glm::vec3 origin, float t, float gamma, const VelocityField& velocity,
                          float* rate);
#endif

}  // namespace meniscus::sim::levelset
