#include "sim/histopyramid/cell_slices.h"

#include <array>
#include <bit>
#include <stdexcept>

#if defined(MENISCUS_MC_X86)
#include <immintrin.h>
#endif

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

// Per case and output corner, where its vertex sits relative to the cell: the sample row
// k = dy + 2 dz, and the slot 4 dx + axis past the cell's own sample x.
struct CornerCodes {
  std::array<std::array<uint8_t, mc::kMaxTriangles * 3>, 256> row{}, slot{};
};

const CornerCodes& corner_codes() {
  static const CornerCodes table = [] {
    CornerCodes t;
    for (int c = 0; c < 256; ++c)
      for (int i = 0; i < 3 * mc::cases()[c].triangles; ++i) {
        const mc::Edge& e = mc::edges()[mc::cases()[c].edges[i]];
        t.row[c][i] = uint8_t(((e.a >> 1) & 1) | ((e.a >> 2) & 1) << 1);
        t.slot[c][i] = uint8_t((e.a & 1) * 4 + e.axis);
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
    // Bits 2k and 2k + 1 are row k's bits b and b + 1 of `lo`, but for the word's last cell,
    // whose x + 1 corner is in the next word (hi's bit 63).
    if (b < 63) [[likely]]
      return uint32_t(lo[0] >> b & 3) | uint32_t(lo[1] >> b & 3) << 2 | uint32_t(lo[2] >> b & 3) << 4 |
             uint32_t(lo[3] >> b & 3) << 6;
    return uint32_t(lo[0] >> b & 1) | uint32_t(hi[0] >> b & 1) << 1 | uint32_t(lo[1] >> b & 1) << 2 |
           uint32_t(hi[1] >> b & 1) << 3 | uint32_t(lo[2] >> b & 1) << 4 | uint32_t(hi[2] >> b & 1) << 5 |
           uint32_t(lo[3] >> b & 1) << 6 | uint32_t(hi[3] >> b & 1) << 7;
  }
};

// The bits of the four sample rows of cell row (y, z), k = dy + 2 dz.
struct SampleRows {
  const uint64_t* bits[4];

  SampleRows(const SampleMasks& masks, uint32_t y, uint32_t z) {
    for (uint32_t k = 0; k < 4; ++k)
      bits[k] = masks.inside.data() + (size_t(z + (k >> 1)) * masks.dims.y + y + (k & 1)) * masks.words;
  }
};

uint32_t cell_words(const SampleMasks& masks) { return (masks.dims.x - 1 + 63) / 64; }

// Calls cell(x, mc_case) for each mixed cell of the cell row whose sample rows are `rows`, in
// x order.
template <class Cell>
inline void for_each_mixed_cell(const SampleMasks& masks, const SampleRows& rows, Cell&& cell) {
  for (uint32_t w = 0, n = cell_words(masks); w < n; ++w) {
    const CellWord word(rows.bits, w, masks.words, masks.dims.x - 1);
    for (uint64_t bits = word.mixed; bits; bits &= bits - 1) {
      const uint32_t b = uint32_t(std::countr_zero(bits));
      cell(64 * w + b, word.mc_case(b));
    }
  }
}

// Numbers the crossed edges of sample row (y, z) into its slots, from `base` plus the row's
// first vertex. Only crossed edges' slots are written, and only they are read.
void number_row_slots(const SampleMasks& masks, uint32_t y, uint32_t z, uint32_t base, uint32_t* slots) {
  const uint32_t row = z * masks.dims.y + y;
  const bool has_y = y + 1 < masks.dims.y, has_z = z + 1 < masks.dims.z;
  uint32_t v = masks.first_vertex[size_t(row) * masks.words] + base;
  for (uint32_t w = 0; w < masks.words; ++w) {
    const SampleMasks::Crossings c = masks.crossings(row, w, has_y, has_z);
    for (uint64_t bits = c.x | c.y | c.z; bits; bits &= bits - 1) {
      const uint32_t b = uint32_t(std::countr_zero(bits));
      uint32_t* slot = slots + 4 * (64 * w + b);
      slot[0] = v;
      v += uint32_t(c.x >> b & 1);
      slot[1] = v;
      v += uint32_t(c.y >> b & 1);
      slot[2] = v;
      v += uint32_t(c.z >> b & 1);
    }
  }
}

// The corners of one cell row, from out[0] on; returns how many. rows[k] are the slots of
// sample row k.
uint32_t write_row_baseline(const SampleMasks& masks, const SampleRows& sample_rows, const uint32_t* const rows[4],
                            uint32_t* out) {
  const CornerCodes& codes = corner_codes();
  const std::array<uint8_t, 256>& counts = corner_counts();
  uint32_t written = 0;
  for_each_mixed_cell(masks, sample_rows, [&](uint32_t x, uint32_t mc_case) {
    for (uint32_t i = 0, count = counts[mc_case]; i < count; ++i)
      out[written + i] = rows[codes.row[mc_case][i]][4 * x + codes.slot[mc_case][i]];
    written += counts[mc_case];
  });
  return written;
}

#if defined(MENISCUS_MC_X86)
// A case has at most five triangles, so its corners fit one AVX-512 register of 16 lanes, or
// two AVX2 registers of 8. A cell's twelve edges sit in slots 4 x .. 4 x + 7 of its four sample
// rows, from which each lane picks its corner's slot 8 k + 4 dx + axis: AVX-512 from two
// registers of 16 (rows 0-1, 2-3), AVX2 from four of 8 (a row each).
struct CornerLanes {
  alignas(64) std::array<std::array<int32_t, 16>, 256> pick{};
};

const CornerLanes& corner_lanes() {
  static const CornerLanes table = [] {
    if (mc::max_triangles() * 3 > 16) throw std::logic_error("marching cubes: a case's corners exceed 16 lanes");
    CornerLanes t;
    const CornerCodes& codes = corner_codes();
    for (int c = 0; c < 256; ++c)
      for (int i = 0; i < corner_counts()[c]; ++i) t.pick[c][i] = 8 * codes.row[c][i] + codes.slot[c][i];
    return t;
  }();
  return table;
}

// Per half of a case's corners, each lane's slot from the four rows' registers: a permute
// within each row by the pick's low three bits, then blends by its bit 3 (row k or k + 1) and
// bit 4 (rows 0-1 or 2-3), moved to the sign bits that blendv reads. Both halves are written
// whatever the count (the caller leaves room past the row's last corner): a branch on the count
// would mispredict more often than the second half costs.
__attribute__((target("avx2"))) uint32_t write_row_avx2(const SampleMasks& masks, const SampleRows& sample_rows,
                                                        const uint32_t* const rows[4], uint32_t* out) {
  const CornerLanes& lanes = corner_lanes();
  const std::array<uint8_t, 256>& counts = corner_counts();
  uint32_t written = 0;
  // The loop of for_each_mixed_cell, written out: a lambda compiled for AVX2 is not inlined into
  // a template compiled without it, and a call per cell would cost more than the loop.
  for (uint32_t w = 0, n = cell_words(masks); w < n; ++w) {
    const CellWord word(sample_rows.bits, w, masks.words, masks.dims.x - 1);
    for (uint64_t bits = word.mixed; bits; bits &= bits - 1) {
      const uint32_t b = uint32_t(std::countr_zero(bits)), x = 64 * w + b;
      const uint32_t mc_case = word.mc_case(b);
      __m256i row[4];
      for (int k = 0; k < 4; ++k) row[k] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(rows[k] + 4 * x));
      for (int half = 0; half < 2; ++half) {
        const __m256i pick = _mm256_load_si256(reinterpret_cast<const __m256i*>(lanes.pick[mc_case].data() + 8 * half));
        auto from = [&](int k) __attribute__((target("avx2"))) {
          return _mm256_castsi256_ps(_mm256_permutevar8x32_epi32(row[k], pick));
        };
        const __m256 odd_row = _mm256_castsi256_ps(_mm256_slli_epi32(pick, 28));
        const __m256 upper_rows = _mm256_castsi256_ps(_mm256_slli_epi32(pick, 27));
        const __m256 corners = _mm256_blendv_ps(_mm256_blendv_ps(from(0), from(1), odd_row),
                                                _mm256_blendv_ps(from(2), from(3), odd_row), upper_rows);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + written + 8 * half), _mm256_castps_si256(corners));
      }
      written += counts[mc_case];
    }
  }
  return written;
}

// The cases of a word's 64 cells at once, a byte each: corner bit 2k (2k + 1) is set in the
// cells whose sample row k is inside at x (x + 1).
__attribute__((target("avx512f,avx512bw"))) __m512i word_cases(const CellWord& word) {
  __m512i cases = _mm512_setzero_si512();
  for (int k = 0; k < 4; ++k) {
    cases = _mm512_mask_add_epi8(cases, word.lo[k], cases, _mm512_set1_epi8(char(1 << (2 * k))));
    cases = _mm512_mask_add_epi8(cases, word.hi[k], cases, _mm512_set1_epi8(char(2 << (2 * k))));
  }
  return cases;
}

__attribute__((target("avx512f,avx512bw"))) uint32_t write_row_avx512(const SampleMasks& masks,
                                                                      const SampleRows& sample_rows,
                                                                      const uint32_t* const rows[4], uint32_t* out) {
  const CornerLanes& lanes = corner_lanes();
  const std::array<uint8_t, 256>& counts = corner_counts();
  uint32_t written = 0;
  alignas(64) uint8_t cases[64];
  for (uint32_t w = 0, n = cell_words(masks); w < n; ++w) {
    const CellWord word(sample_rows.bits, w, masks.words, masks.dims.x - 1);
    if (!word.mixed) continue;
    _mm512_store_si512(cases, word_cases(word));
    for (uint64_t bits = word.mixed; bits; bits &= bits - 1) {
      const uint32_t b = uint32_t(std::countr_zero(bits)), x = 64 * w + b;
      const uint32_t mc_case = cases[b];
      // Rows k and k + 1's eight slots at x as the low and high halves of one register (the
      // masked inserts: GCC 12's plain ones start from an undefined register and warn).
      auto two_rows = [&](uint32_t k) __attribute__((target("avx512f"))) {
        const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(rows[k] + 4 * x));
        const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(rows[k + 1] + 4 * x));
        return _mm512_maskz_inserti64x4(0xFF, _mm512_maskz_inserti64x4(0x0F, _mm512_setzero_si512(), a, 0), b, 1);
      };
      const __m512i lower = two_rows(0), upper = two_rows(2);
      const __m512i corners = _mm512_permutex2var_epi32(lower, _mm512_load_si512(lanes.pick[mc_case].data()), upper);
      _mm512_mask_storeu_epi32(out + written, __mmask16((1u << counts[mc_case]) - 1), corners);
      written += counts[mc_case];
    }
  }
  return written;
}
#endif

using WriteRow = uint32_t (*)(const SampleMasks&, const SampleRows&, const uint32_t* const*, uint32_t*);

WriteRow write_row_for(McKernels kernels) {
#if defined(MENISCUS_MC_X86)
  return mc_loop<WriteRow>(kernels, write_row_avx512, write_row_avx2, write_row_baseline);
#else
  (void)kernels;
  return write_row_baseline;
#endif
}

}  // namespace

uint64_t count_cell_slice_corners(const SampleMasks& masks, uint32_t z) {
  const std::array<uint8_t, 256>& counts = corner_counts();
  uint64_t corners = 0;
  for (uint32_t y = 0; y + 1 < masks.dims.y; ++y)
    for_each_mixed_cell(masks, SampleRows(masks, y, z),
                        [&](uint32_t, uint32_t mc_case) { corners += counts[mc_case]; });
  return corners;
}

CellSliceWriter::NumberedSlice& CellSliceWriter::replace(const SampleMasks& masks, uint32_t z, uint32_t base,
                                                         const uint32_t* keep) {
  NumberedSlice* slice = &slices_[0];
  if (keep != nullptr) {
    if (slice->slots.data() == keep) slice = &slices_[1];
  } else if (slices_[1].stamp < slices_[0].stamp) {
    slice = &slices_[1];
  }
  slice->slots.resize(4 * size_t(masks.dims.x) * masks.dims.y);
  slice->masks = &masks;
  slice->generation = masks.generation;
  slice->z = z;
  slice->base = base;
  slice->stamp = ++stamps_;
  return *slice;
}

uint32_t* CellSliceWriter::slots_to_fill(const SampleMasks& masks, uint32_t z, uint32_t base) {
  return replace(masks, z, base, nullptr).slots.data();
}

const uint32_t* CellSliceWriter::numbered(const SampleMasks& masks, uint32_t z, uint32_t base, const uint32_t* keep) {
  for (const NumberedSlice& slice : slices_)
    if (slice.masks == &masks && slice.generation == masks.generation && slice.z == z && slice.base == base)
      return slice.slots.data();
  NumberedSlice& slice = replace(masks, z, base, keep);
  const size_t stride = 4 * size_t(masks.dims.x);
  for (uint32_t y = 0; y < masks.dims.y; ++y) number_row_slots(masks, y, z, base, slice.slots.data() + y * stride);
  return slice.slots.data();
}

uint64_t CellSliceWriter::write(const SampleMasks& masks, uint32_t z, const uint32_t slice_base[2],
                                UninitializedVector<uint32_t>& out, size_t at) {
  const WriteRow write_row = write_row_for(kernels_);
  const glm::uvec3 dims = masks.dims;
  const uint32_t* lower = numbered(masks, z, slice_base[0], nullptr);
  const uint32_t* upper = numbered(masks, z + 1, slice_base[1], lower);
  const size_t stride = 4 * size_t(dims.x);
  static const size_t most_per_cell = size_t(mc::max_triangles()) * 3;
  // The AVX2 rows store 16 corners a cell whatever its count: room for them past the last.
  const size_t most_per_row = most_per_cell * (dims.x - 1) + 16;
  const size_t first = at;
  for (uint32_t y = 0; y + 1 < dims.y; ++y) {
    if (out.size() < at + most_per_row) out.resize(std::max(at + most_per_row, 2 * out.size()));
    const uint32_t* rows[4] = {lower + y * stride, lower + (y + 1) * stride, upper + y * stride,
                               upper + (y + 1) * stride};
    at += write_row(masks, SampleRows(masks, y, z), rows, out.data() + at);
  }
  return at - first;
}

}  // namespace meniscus::sim
