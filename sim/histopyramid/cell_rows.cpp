#include "sim/histopyramid/cell_rows.h"

#include <array>
#include <bit>

#include "sim/histopyramid/mc_tables.h"

namespace meniscus::sim {
namespace {

// Triangle corners per case (3 per triangle), small enough to stay in L1.
const std::array<uint8_t, 256>& corner_counts() {
  static const std::array<uint8_t, 256> table = [] {
    std::array<uint8_t, 256> out{};
    for (int c = 0; c < 256; ++c) out[c] = uint8_t(3 * mc::cases()[c].triangles);
    return out;
  }();
  return table;
}

// Per case and output corner, where its vertex sits relative to the cell: bits 0-1 the sample
// row k = dy + 2 dz, bits 2-4 the slot dx * 4 + axis (see VertexSlots).
using CornerCodes = std::array<std::array<uint8_t, mc::kMaxTriangles * 3>, 256>;

const CornerCodes& corner_codes() {
  static const CornerCodes table = [] {
    CornerCodes t{};
    for (int c = 0; c < 256; ++c)
      for (int i = 0; i < 3 * mc::cases()[c].triangles; ++i) {
        const mc::Edge& e = mc::edges()[mc::cases()[c].edges[i]];
        t[c][i] = uint8_t(((e.a >> 1) & 1) | ((e.a >> 2) & 1) << 1 | ((e.a & 1) * 4 + e.axis) << 2);
      }
    return t;
  }();
  return table;
}

// One word of a cell row: the inside bits of its four sample rows at cells x (lo) and x + 1
// (hi), and which of its cells are mixed (some corner inside, some outside).
struct CellWord {
  uint64_t lo[4], hi[4];
  uint64_t mixed;

  CellWord(const uint64_t* const rows[4], uint32_t w, uint32_t words, uint32_t cells_x) {
    uint64_t any = 0, all = ~uint64_t(0);
    for (int k = 0; k < 4; ++k) {
      lo[k] = rows[k][w];
      hi[k] = lo[k] >> 1 | (w + 1 < words ? rows[k][w + 1] << 63 : 0);
      any |= lo[k] | hi[k];
      all &= lo[k] & hi[k];
    }
    const uint32_t left = cells_x - 64 * w;  // > 0: callers stop at the last cell's word
    const uint64_t valid = left >= 64 ? ~uint64_t(0) : (uint64_t(1) << left) - 1;
    mixed = any & ~all & valid;
  }
  uint32_t mc_case(uint32_t b) const {
    return uint32_t(lo[0] >> b & 1) | uint32_t(hi[0] >> b & 1) << 1 | uint32_t(lo[1] >> b & 1) << 2 |
           uint32_t(hi[1] >> b & 1) << 3 | uint32_t(lo[2] >> b & 1) << 4 | uint32_t(hi[2] >> b & 1) << 5 |
           uint32_t(lo[3] >> b & 1) << 6 | uint32_t(hi[3] >> b & 1) << 7;
  }
};

// The four sample rows of cell row (y, z), k = dy + 2 dz.
struct SampleRows {
  uint32_t row[4];
  bool has_y[4], has_z[4];
  const uint64_t* bits[4];

  SampleRows(const SampleMasks& masks, uint32_t y, uint32_t z) {
    for (uint32_t k = 0; k < 4; ++k) {
      const uint32_t dy = k & 1, dz = k >> 1;
      row[k] = (z + dz) * masks.dims.y + y + dy;
      has_y[k] = y + dy + 1 < masks.dims.y;
      has_z[k] = z + dz + 1 < masks.dims.z;
      bits[k] = masks.inside.data() + size_t(row[k]) * masks.words;
    }
  }
};

uint32_t cell_words(const SampleMasks& masks) { return (masks.dims.x - 1 + 63) / 64; }

}  // namespace

uint32_t count_cell_row_corners(const SampleMasks& masks, uint32_t y, uint32_t z) {
  const std::array<uint8_t, 256>& counts = corner_counts();
  const SampleRows rows(masks, y, z);
  uint32_t corners = 0;
  for (uint32_t w = 0, n = cell_words(masks); w < n; ++w) {
    const CellWord word(rows.bits, w, masks.words, masks.dims.x - 1);
    for (uint64_t bits = word.mixed; bits; bits &= bits - 1) corners += counts[word.mc_case(uint32_t(std::countr_zero(bits)))];
  }
  return corners;
}

void write_cell_row_corners(const SampleMasks& masks, uint32_t y, uint32_t z, const uint32_t slice_base[2],
                            uint32_t* out) {
  const CornerCodes& codes = corner_codes();
  const std::array<uint8_t, 256>& counts = corner_counts();
  const SampleRows rows(masks, y, z);
  // Per sample row k, the vertex on the edge from sample 64 w + b along `axis`, at
  // [k][4 b + axis], for b up to 64 (the next word's first sample, which the word's last cell
  // reaches). Only crossed edges' slots are read; the others hold whatever was written last.
  uint32_t vertex_at[4][65 * 4];
  for (uint32_t w = 0, n = cell_words(masks); w < n; ++w) {
    const CellWord word(rows.bits, w, masks.words, masks.dims.x - 1);
    if (!word.mixed) continue;
    for (uint32_t k = 0; k < 4; ++k) {
      const SampleMasks::Crossings c = masks.crossings(rows.row[k], w, rows.has_y[k], rows.has_z[k]);
      uint32_t v = masks.first_vertex[size_t(rows.row[k]) * masks.words + w] + slice_base[k >> 1];
      for (uint64_t bits = c.x | c.y | c.z; bits; bits &= bits - 1) {
        const uint32_t b = uint32_t(std::countr_zero(bits));
        uint32_t* slot = vertex_at[k] + 4 * b;
        slot[0] = v;
        v += uint32_t(c.x >> b & 1);
        slot[1] = v;
        v += uint32_t(c.y >> b & 1);
        slot[2] = v;
        v += uint32_t(c.z >> b & 1);
      }
      if (word.mixed >> 63) {  // then sample 64 (w + 1) exists
        const SampleMasks::Crossings next = masks.crossings(rows.row[k], w + 1, rows.has_y[k], rows.has_z[k]);
        uint32_t* slot = vertex_at[k] + 4 * 64;
        slot[0] = v;
        slot[1] = v + uint32_t(next.x & 1);
        slot[2] = slot[1] + uint32_t(next.y & 1);
      }
    }
    for (uint64_t bits = word.mixed; bits; bits &= bits - 1) {
      const uint32_t b = uint32_t(std::countr_zero(bits));
      const uint32_t mc_case = word.mc_case(b);
      const uint8_t* code = codes[mc_case].data();
      for (uint32_t i = 0, count = counts[mc_case]; i < count; ++i) out[i] = vertex_at[code[i] & 3][4 * b + (code[i] >> 2)];
      out += counts[mc_case];
    }
  }
}

}  // namespace meniscus::sim
