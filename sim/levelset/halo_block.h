#pragma once
// A tile with a halo of kHalo = 3 voxels on every side, gathered from the tile and its 26
// neighbours: the widest stencil of Eq. 1's discretisation (HJ-WENO5 reads 3 voxels along each
// axis, the curvature term a 3^3 neighbourhood) then reads one dense 10^3 block. Since 3 < 4,
// direct neighbour tiles hold the whole stencil (the paper's §3.4 argument).
//
// The narrow band (|φ| < γ, γ = 1.5 by default) is thinner than WENO5's reach, so stencils
// read beyond it: φ is kept clamped to ±γ there, and a voxel in a tile that is not in the
// list reads ±γ with the sign of the nearest voxel of the tile being gathered (the same rule
// as gather_block and new tiles). The clamp is a kink, not a jump, and WENO's smoothness
// weights put almost no weight on the sub-stencils that cross it.
#include <cstdint>
#include <functional>

#include "sim/levelset/sorted_tile_list.h"

namespace meniscus::sim::levelset {

inline constexpr int kHalo = 3;
inline constexpr int kHaloSide = kTileSide + 2 * kHalo;
inline constexpr int kHaloVoxels = kHaloSide * kHaloSide * kHaloSide;
inline constexpr int kHaloStrideY = kHaloSide, kHaloStrideZ = kHaloSide * kHaloSide;
inline constexpr int kHaloStrides[3] = {1, kHaloStrideY, kHaloStrideZ};  // of the x, y, z neighbours

// Index in the block of tile-local voxel (x, y, z), each in [-kHalo, kTileSide + kHalo).
constexpr int halo_index(int x, int y, int z) {
  return ((z + kHalo) * kHaloSide + (y + kHalo)) * kHaloSide + (x + kHalo);
}

// `neighbours[d]`: id of the neighbour in direction d (neighbour_offsets order) or UINT32_MAX.
// Only what a stencil of that reach (1..kHalo) reads is gathered: the face neighbours `reach`
// voxels deep (the axis-aligned WENO or first-order stencils), the edge neighbours one voxel
// deep (the mixed differences of the curvature term and flat_beyond_band), the corners not at
// all. The rest of the block is left as it was.
void gather_halo(const SortedTileList& list, uint32_t id, const uint32_t neighbours[26], float block[kHaloVoxels],
                 int reach = kHalo);

// Calls visit(list position, tile id, block) for every active tile, in chunks of the list on
// TBB threads; each chunk walks its tiles in key order with Algorithm 1's neighbour pointers.
// `visit` may run concurrently for different tiles and must only write per-tile output.
// `only`, when given, names the tiles to visit by key; the others are neither gathered nor visited.
using HaloVisit = std::function<void(size_t position, uint32_t id, const float* block)>;
void for_each_halo_block(const SortedTileList& list, const HaloVisit& visit, int reach = kHalo,
                         const std::function<bool(TileKey)>& only = {});

}  // namespace meniscus::sim::levelset
