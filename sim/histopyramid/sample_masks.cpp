#include "sim/histopyramid/sample_masks.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace meniscus::sim {
namespace {

// Inside bits of n <= 64 samples. NaN compares false: outside, as f >= iso says.
uint64_t inside_word(const float* f, uint32_t n, float iso) {
  uint64_t bits = 0;
  uint32_t x = 0;
#if defined(__SSE2__)
  const __m128 level = _mm_set1_ps(iso);
  for (; x + 16 <= n; x += 16) {
    const uint64_t a = uint64_t(_mm_movemask_ps(_mm_cmpge_ps(_mm_loadu_ps(f + x), level)));
    const uint64_t b = uint64_t(_mm_movemask_ps(_mm_cmpge_ps(_mm_loadu_ps(f + x + 4), level)));
    const uint64_t c = uint64_t(_mm_movemask_ps(_mm_cmpge_ps(_mm_loadu_ps(f + x + 8), level)));
    const uint64_t d = uint64_t(_mm_movemask_ps(_mm_cmpge_ps(_mm_loadu_ps(f + x + 12), level)));
    bits |= (a | b << 4 | c << 8 | d << 12) << x;
  }
#endif
  for (; x < n; ++x) bits |= uint64_t(f[x] >= iso) << x;
  return bits;
}

}  // namespace

void resize_masks(SampleMasks& masks, glm::uvec3 dims) {
  masks.dims = dims;
  masks.words = (dims.x + 63) / 64;
  masks.inside.resize(size_t(dims.y) * dims.z * masks.words);
  masks.first_vertex.resize(masks.inside.size());
}

SampleCensus classify_samples(const Volume& volume, float iso, SampleMasks& masks, uint32_t z_begin, uint32_t z_end) {
  const uint32_t words = masks.words, nx = volume.dims.x;
  const uint64_t last_full = nx % 64 ? (uint64_t(1) << (nx % 64)) - 1 : ~uint64_t(0);
  // Whether some sample is inside and some outside: with both there is a surface and the iso
  // value is inside the data range, so the range itself is only needed when there is none.
  return tbb::parallel_reduce(
      tbb::blocked_range<uint32_t>(z_begin * volume.dims.y, z_end * volume.dims.y, 64), SampleCensus{},
      [&](const tbb::blocked_range<uint32_t>& r, SampleCensus census) {
        for (uint32_t row = r.begin(); row != r.end(); ++row) {
          const float* f = volume.values.data() + size_t(row) * nx;
          uint64_t* out = masks.inside.data() + size_t(row) * words;
          uint64_t any = 0, all = ~uint64_t(0);
          for (uint32_t w = 0; w < words; ++w) {
            const uint32_t n = w + 1 < words ? 64 : nx - 64 * w;
            const uint64_t bits = inside_word(f + 64 * w, n, iso);
            out[w] = bits;
            any |= bits;
            all &= w + 1 < words ? bits : bits | ~last_full;
          }
          census.any_inside |= any != 0;
          census.any_outside |= all != ~uint64_t(0);
        }
        return census;
      },
      [](SampleCensus a, SampleCensus b) {
        return SampleCensus{a.any_inside || b.any_inside, a.any_outside || b.any_outside};
      });
}

uint64_t number_crossings(SampleMasks& masks, uint32_t z_begin, uint32_t z_end, uint64_t first) {
  const uint32_t row_begin = z_begin * masks.dims.y, row_end = z_end * masks.dims.y, words = masks.words;
  std::vector<uint32_t> totals(row_end - row_begin);
  // Per-word counts and per-row totals in parallel, then the rows' bases in one short scan,
  // then each row's words offset by its base.
  tbb::parallel_for(tbb::blocked_range<uint32_t>(row_begin, row_end, 256), [&](const tbb::blocked_range<uint32_t>& r) {
    for (uint32_t row = r.begin(); row != r.end(); ++row) {
      const bool has_y = row % masks.dims.y + 1 < masks.dims.y, has_z = row / masks.dims.y + 1 < masks.dims.z;
      uint32_t running = 0;
      for (uint32_t w = 0; w < words; ++w) {
        const SampleMasks::Crossings c = masks.crossings(row, w, has_y, has_z);
        masks.first_vertex[size_t(row) * words + w] = running;
        running += uint32_t(std::popcount(c.x) + std::popcount(c.y) + std::popcount(c.z));
      }
      totals[row - row_begin] = running;
    }
  });
  uint64_t total = first;
  for (uint32_t& t : totals) {
    const uint64_t count = t;
    t = uint32_t(total);  // wraps past 2^32, which the caller refuses
    total += count;
  }
  tbb::parallel_for(tbb::blocked_range<uint32_t>(row_begin, row_end, 256), [&](const tbb::blocked_range<uint32_t>& r) {
    for (uint32_t row = r.begin(); row != r.end(); ++row)
      for (uint32_t w = 0; w < words; ++w) masks.first_vertex[size_t(row) * words + w] += totals[row - row_begin];
  });
  return total;
}

}  // namespace meniscus::sim
