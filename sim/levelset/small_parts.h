#pragma once
// Connected inside regions of a level set (voxels with φ < 0, joined across faces), and the
// removal of the small ones: a surface evolved toward samples leaves specks where it kept a
// sample that the grid cannot join to the body (a reconstruction's held samples on a part
// thinner than a voxel), and a speck is drawn as a dark grain on the rim, not as the part.
#include <cstddef>

#include "sim/levelset/sorted_tile_list.h"

namespace meniscus::sim::levelset {

// Makes every inside region of fewer than `max_voxels` voxels outside (+γ, and the band left
// around it), unless it reaches a tile beyond the band on the inside (part of a body too large
// for the band to hold whole). Flags are updated; the tiles left at +γ stay until the next
// management (an evolution step, upsampling). Returns the voxels made outside.
size_t remove_small_parts(SortedTileList& list, size_t max_voxels);
// The same for outside regions (φ >= 0) that do not reach a tile beyond the band on the outside:
// cavities, made inside (−γ). A reconstruction's cavities carved around samples inside a sealed
// fold leave one where the fold did not open.
size_t remove_small_holes(SortedTileList& list, size_t max_voxels);

}  // namespace meniscus::sim::levelset
