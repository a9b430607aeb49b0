#include "sim/histopyramid/sample_masks.h"

#include <algorithm>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(MENISCUS_MC_X86)
#include <immintrin.h>
#endif

namespace meniscus::sim {

namespace {

// Inside bits of n <= 64 samples. NaN compares false: outside, as f >= iso says.
uint64_t inside_word_baseline(const float* f, uint32_t n, float iso) {
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

// The census of a row's words (bits past the row's end are 0 and do not count as outside).
SampleCensus row_census(const uint64_t* bits, uint32_t nx, uint32_t words) {
  const uint64_t last_full = nx % 64 ? (uint64_t(1) << (nx % 64)) - 1 : ~uint64_t(0);
  uint64_t any = 0, all = ~uint64_t(0);
  for (uint32_t w = 0; w < words; ++w) {
    any |= bits[w];
    all &= w + 1 < words ? bits[w] : bits[w] | ~last_full;
  }
  return {any != 0, all != ~uint64_t(0)};
}

SampleCensus classify_slice_baseline(const float* f, uint32_t nx, uint32_t rows, uint32_t words, float iso,
                                     uint64_t* out) {
  SampleCensus census;
  for (uint32_t y = 0; y < rows; ++y, f += nx, out += words) {
    for (uint32_t w = 0; w < words; ++w) out[w] = inside_word_baseline(f + 64 * w, std::min(64u, nx - 64 * w), iso);
    census |= row_census(out, nx, words);
  }
  return census;
}

#if defined(MENISCUS_MC_X86)
// One compare gives 8 bits; the row's last, partial word takes the SSE2 loop. NaN compares
// false (ordered compare), as above.
__attribute__((target("avx2"))) SampleCensus classify_slice_avx2(const float* f, uint32_t nx, uint32_t rows,
                                                                 uint32_t words, float iso, uint64_t* out) {
  const __m256 level = _mm256_set1_ps(iso);
  SampleCensus census;
  for (uint32_t y = 0; y < rows; ++y, f += nx, out += words) {
    const uint32_t full = nx / 64;
    for (uint32_t w = 0; w < full; ++w) {
      const float* p = f + 64 * w;
      uint64_t bits = 0;
      for (int eighth = 0; eighth < 8; ++eighth)
        bits |=
            uint64_t(uint32_t(_mm256_movemask_ps(_mm256_cmp_ps(_mm256_loadu_ps(p + 8 * eighth), level, _CMP_GE_OQ))))
            << (8 * eighth);
      out[w] = bits;
    }
    if (full < words) out[full] = inside_word_baseline(f + 64 * full, nx - 64 * full, iso);
    census |= row_census(out, nx, words);
  }
  return census;
}

// One compare gives 16 bits; a masked load reads nothing past the row's end. NaN compares
// false (ordered compare), as above.
__attribute__((target("avx512f"))) SampleCensus classify_slice_avx512(const float* f, uint32_t nx, uint32_t rows,
                                                                      uint32_t words, float iso, uint64_t* out) {
  const __m512 level = _mm512_set1_ps(iso);
  SampleCensus census;
  for (uint32_t y = 0; y < rows; ++y, f += nx, out += words) {
    const uint32_t full = nx / 64;
    for (uint32_t w = 0; w < full; ++w) {
      const float* p = f + 64 * w;
      for (int line = 0; line < 4; ++line)
        _mm_prefetch(reinterpret_cast<const char*>(p + 1024 + 16 * line), _MM_HINT_T0);
      const uint64_t a = _mm512_cmp_ps_mask(_mm512_loadu_ps(p), level, _CMP_GE_OQ);
      const uint64_t b = _mm512_cmp_ps_mask(_mm512_loadu_ps(p + 16), level, _CMP_GE_OQ);
      const uint64_t c = _mm512_cmp_ps_mask(_mm512_loadu_ps(p + 32), level, _CMP_GE_OQ);
      const uint64_t d = _mm512_cmp_ps_mask(_mm512_loadu_ps(p + 48), level, _CMP_GE_OQ);
      out[w] = a | b << 16 | c << 32 | d << 48;
    }
    if (full < words) {
      const uint32_t n = nx - 64 * full;
      uint64_t bits = 0;
      for (uint32_t x = 0; x < n; x += 16) {
        const __mmask16 lanes = n - x >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << (n - x)) - 1);
        const __m512 v = _mm512_maskz_loadu_ps(lanes, f + 64 * full + x);
        bits |= uint64_t(_mm512_mask_cmp_ps_mask(lanes, v, level, _CMP_GE_OQ)) << x;
      }
      out[full] = bits;
    }
    census |= row_census(out, nx, words);
  }
  return census;
}
#endif

using ClassifySlice = SampleCensus (*)(const float*, uint32_t, uint32_t, uint32_t, float, uint64_t*);

ClassifySlice classify_slice_for(McKernels kernels) {
#if defined(MENISCUS_MC_X86)
  return mc_loop<ClassifySlice>(kernels, classify_slice_avx512, classify_slice_avx2, classify_slice_baseline);
#else
  (void)kernels;
  return classify_slice_baseline;
#endif
}

}  // namespace

void resize_masks(SampleMasks& masks, glm::uvec3 dims) {
  masks.dims = dims;
  masks.words = (dims.x + 63) / 64;
  masks.inside.resize(size_t(dims.y) * dims.z * masks.words);
  masks.first_vertex.resize(masks.inside.size());
  ++masks.generation;
}

SampleCensus classify_slice(const Volume& volume, float iso, SampleMasks& masks, uint32_t z, McKernels kernels) {
  const ClassifySlice classify = classify_slice_for(kernels);
  const size_t first_row = size_t(z) * volume.dims.y;
  return classify(volume.values.data() + first_row * volume.dims.x, volume.dims.x, volume.dims.y, masks.words, iso,
                  masks.inside.data() + first_row * masks.words);
}

}  // namespace meniscus::sim
