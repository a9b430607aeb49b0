#pragma once
// The cells of one z-slice, from the sample bits alone: how many triangle corners they emit,
// and the vertex index of each corner, in cell order. A cell's case is eight bits of its four
// sample rows (y + dy, z + dz), and a word of 64 cells whose bits all agree emits nothing, so a
// row away from the surface costs a few word operations.
//
// A corner's vertex is looked up, not searched for: each sample slice's crossed edges are
// numbered in order from its rows' first vertices (SampleMasks::first_vertex) into slots by
// sample and axis, and a cell reads its corners from the slots of its four rows. A writer keeps
// the last two slices numbered, so that writing cell slices z and z + 1 in turn numbers sample
// slice z + 1 once, and a caller that numbers the edges anyway (list_slice_edges) can fill a
// slice's slots for it.
#include <cstdint>

#include "engine/core/uninitialized_vector.h"
#include "sim/histopyramid/mc_kernels.h"
#include "sim/histopyramid/sample_masks.h"

namespace meniscus::sim {

// Triangle corners (three per triangle) the cells of slice z emit.
uint64_t count_cell_slice_corners(const SampleMasks& masks, uint32_t z);

class CellSliceWriter {
 public:
  explicit CellSliceWriter(McKernels kernels = McKernels::kFastest) : kernels_(kernels) {}

  // Writes the corners of cell slice z in cell order from out[at] on, growing `out` as needed;
  // returns how many. first_vertex holds numbers relative to a base per sample slice:
  // `slice_base[0]` is added for slice z, `slice_base[1]` for slice z + 1.
  uint64_t write(const SampleMasks& masks, uint32_t z, const uint32_t slice_base[2], UninitializedVector<uint32_t>& out,
                 size_t at);

  // Room for the slots of sample slice z numbered from `base` (4 dims.x dims.y of them), for
  // the caller to fill before the next call; write() then takes them as they are. Replaces the
  // older of the two slices kept.
  uint32_t* slots_to_fill(const SampleMasks& masks, uint32_t z, uint32_t base);

 private:
  // A sample slice's slots: the vertex on the edge from sample (x, y) along `axis` at
  // 4 (y dims.x + x) + axis, numbered from `base`. Only crossed edges' slots are written.
  struct NumberedSlice {
    const SampleMasks* masks = nullptr;  // what was numbered, and its generation then
    uint64_t generation = 0;
    uint32_t z = 0, base = 0;
    uint64_t stamp = 0;  // when it was last (re)numbered
    UninitializedVector<uint32_t> slots;
  };
  // Slice z numbered from `base`: one kept from an earlier call if it matches, else numbered
  // into the entry that does not hold `keep`.
  const uint32_t* numbered(const SampleMasks& masks, uint32_t z, uint32_t base, const uint32_t* keep);
  // The entry to reuse for slice z: the one that does not hold `keep`, else the older, sized
  // and labelled.
  NumberedSlice& replace(const SampleMasks& masks, uint32_t z, uint32_t base, const uint32_t* keep);

  NumberedSlice slices_[2];
  uint64_t stamps_ = 0;
  McKernels kernels_;
};

}  // namespace meniscus::sim
