#pragma once
// The cells of one row, 64 to a mask word, from the sample bits alone: how many triangle corners
// they emit, and the vertex index of each corner. A cell's case is eight bits of its four sample
// rows (y + dy, z + dz), and a word of 64 cells whose bits all agree emits nothing, so a row
// away from the surface costs a few word operations.
//
// Vertices are numbered as SampleMasks numbers them: a corner's vertex is its sample row's
// word base plus the crossed edges before it, which popcounts give (no search, no hash).
#include <cstdint>

#include "sim/histopyramid/sample_masks.h"

namespace meniscus::sim {

// Triangle corners (three per triangle) the cells of row (y, z) emit.
uint32_t count_cell_row_corners(const SampleMasks& masks, uint32_t y, uint32_t z);

// Writes those corners in cell order to `out`. first_vertex holds numbers relative to a base
// per sample slice: `slice_base[0]` is added for slice z, `slice_base[1]` for slice z + 1.
void write_cell_row_corners(const SampleMasks& masks, uint32_t y, uint32_t z, const uint32_t slice_base[2],
                            uint32_t* out);

}  // namespace meniscus::sim
