#pragma once
// Upsampling the narrow band from level r to r + 1 (Jalba et al. 2013, §4.1, Algorithm 3 line
// 6): each active tile becomes the 8 tiles 2c + (b0, b1, b2), whose values are the trilinear
// interpolation of the coarse tile's, doubled (φ is in voxels, and a voxel halves) and clamped
// to ±γ; the keys are then sorted, as the paper radix-sorts the new list. Most of the new tiles
// hold only ±γ (the coarse band is twice as wide in the world): the first tile-management step
// drops them, and the driver runs that step at once, before any potential is evaluated.
#include "sim/levelset/sorted_tile_list.h"

namespace meniscus::sim::levelset {

// The level-(r + 1) list of `coarse`'s level-r band, with the same γ. Throws InputError when
// the finer tile coordinates do not fit a tile key.
SortedTileList upsample(const SortedTileList& coarse);

}  // namespace meniscus::sim::levelset
