#pragma once
// One bit per sample (set when the sample is inside, f >= iso), 64 samples to a word along x.
// Cases and crossings come from these bits, 32x smaller than the samples (only vertex making
// reads the floats again): a cell's case is eight bits from four rows, a row of 64 cells is
// empty when the bits around it agree, and an edge is crossed where two neighbouring bits
// differ. Crossed edges are numbered by a running count in edge-id order, so a vertex's index
// is its row's first number plus the crossed edges before it (no sort, no hash).
//
// Vertex order is edge-id order: by lower sample (x fastest), then axis x, y, z.
#include <bit>
#include <cstdint>
#include <glm/glm.hpp>
#include <vector>

#include "sim/histopyramid/mc_kernels.h"
#include "sim/histopyramid/volume.h"

namespace meniscus::sim {

struct SampleMasks {
  glm::uvec3 dims{0};
  uint32_t words = 0;                  // words per sample row: ceil(dims.x / 64)
  std::vector<uint64_t> inside;        // [row * words + w], row = z * dims.y + y; bits past dims.x are 0
  std::vector<uint32_t> first_vertex;  // [row * words + w]: crossed edges before this word
  uint64_t generation = 0;             // one more each resize_masks: what was derived before is stale

  struct Crossings {
    uint64_t x, y, z;  // bit b: the edge from sample 64w + b along that axis is crossed
  };
  // Row `row` = z * dims.y + y; `has_y` = y + 1 < dims.y, `has_z` = z + 1 < dims.z (callers
  // know these without the divide that finding y and z from the row would take).
  Crossings crossings(uint32_t row, uint32_t w, bool has_y, bool has_z) const {
    const uint64_t* m = inside.data() + size_t(row) * words;
    const uint64_t here = m[w];
    const uint64_t right = here >> 1 | (w + 1 < words ? m[w + 1] << 63 : 0);
    // x-edges end at dims.x - 1; the last bit of `right` is 0 there, so mask it off.
    const uint32_t last = dims.x - 1 - 64 * w;  // x-edges in this word: bits < last
    const uint64_t x_valid = last >= 64 ? ~uint64_t(0) : (uint64_t(1) << last) - 1;
    return {(here ^ right) & x_valid, has_y ? here ^ m[words + w] : 0,
            has_z ? here ^ m[size_t(dims.y) * words + w] : 0};
  }
};

struct SampleCensus {
  bool any_inside = false, any_outside = false;
  SampleCensus& operator|=(SampleCensus other) {
    any_inside |= other.any_inside;
    any_outside |= other.any_outside;
    return *this;
  }
};

// Sizes the masks for `dims` for a new extraction (memory is reused from extraction to
// extraction; the generation moves on).
void resize_masks(SampleMasks& masks, glm::uvec3 dims);
// The inside bits of the samples of slice z, on the calling thread (one compare gives 8 bits
// with AVX2, 16 with AVX-512).
SampleCensus classify_slice(const Volume& volume, float iso, SampleMasks& masks, uint32_t z, McKernels kernels);
}  // namespace meniscus::sim
