#pragma once
// The k nearest found so far for one query on the CPU (internal to sim/kdtree), sorted by
// (squared distance, input index), ties to the lower index, as two arrays that SIMD
// reads a block of entries at a time. An offer is inserted by one pass of compares and blends
// over the list, with no branch that depends on the distances (but a rarely taken one for
// equal distances): in a KNN search the place a point takes is unpredictable, and a shifting
// loop mispredicts its exit on nearly every offer.
//
// Entry i of the new list is old[i - 1] where that is greater than the offer, else the offer
// where old[i] is greater, else old[i]: the insertion into a sorted list, entry by entry. Empty
// entries hold (+inf, ~0) and are greater than any offer; the entry before the first holds
// -inf and is greater than none. Entries past k (the last block's padding) only ever take
// values from below them, so they never move an entry before k, and an offer greater than the
// k-th leaves the first k as they were.
#include <cstdint>
#include <limits>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
// Functions marked so use AVX-512F or AVX2 (callers check the CPU first, see knn_packet.cpp).
#define MENISCUS_KDTREE_AVX512 1
#define MENISCUS_KDTREE_AVX512_TARGET __attribute__((target("avx512f")))
#define MENISCUS_KDTREE_AVX2_TARGET __attribute__((target("avx2")))
#endif

namespace meniscus::sim::kdtree {

// Lists padded to blocks of 16 entries (one AVX-512 register; four SSE ones).
inline constexpr uint32_t kListBlock = 16;

class NeighbourLists {
 public:
  // `lists` lists of k entries each.
  NeighbourLists(uint32_t lists, uint32_t k)
      : k_(k),
        stride_(kListBlock * ((k + kListBlock - 1) / kListBlock)),
        d2_(size_t(lists) * stride_ + kListBlock),
        ids_(size_t(lists) * stride_ + kListBlock) {}
  // Moves keep the buffers, and so their alignment; a copy would not.
  NeighbourLists(NeighbourLists&&) = default;
  NeighbourLists(const NeighbourLists&) = delete;
  NeighbourLists& operator=(const NeighbourLists&) = delete;

  uint32_t k() const { return k_; }

  // Empties list `l`.
  void clear(uint32_t l) {
    float* d2 = row_d2(l);
    uint32_t* ids = row_ids(l);
    for (uint32_t i = 0; i < stride_; ++i) {
      d2[i] = std::numeric_limits<float>::infinity();
      ids[i] = ~0u;
    }
  }

  // List `l`'s entries, nearest first, each row on a cache line of its own.
  float* row_d2(uint32_t l) { return aligned(d2_.data()) + size_t(l) * stride_; }
  uint32_t* row_ids(uint32_t l) { return aligned(ids_.data()) + size_t(l) * stride_; }
  float distance2(uint32_t l, uint32_t j) { return row_d2(l)[j]; }
  uint32_t index(uint32_t l, uint32_t j) { return row_ids(l)[j]; }

 private:
  template <class T>
  static T* aligned(T* p) {
    return p + (64 - reinterpret_cast<uintptr_t>(p) % 64) % 64 / sizeof(T);
  }

  uint32_t k_, stride_;
  std::vector<float> d2_;
  std::vector<uint32_t> ids_;
};

// Inserts the point `id` at squared distance `d2` (not yet in the list) into the sorted list
// (row_d2, row_ids) of k entries. Returns the k-th squared distance afterwards (+inf while
// fewer than k are held). Four entries at a time (SSE2), or one by one without it.
//
// The list is sorted, so the entries greater than the offer are a suffix: the entries that
// shift are that suffix moved up by one, and the offer takes the first place of the suffix.
// Each block is loaded where it was stored and the entries before it are shifted in within
// registers: a load of the list one entry off would straddle the stores of the offer before
// and wait for them (a failed store forward on nearly every offer).
#if defined(__SSE2__)
// Entries of `d` (squared distances, ids in `ids`) greater than (x, xi) as lanes of all ones.
inline __m128i greater_entries(__m128i d, __m128i ids, __m128 x, __m128i xi_signed) {
  const __m128i sign = _mm_set1_epi32(int(0x80000000u));
  const __m128 later_id = _mm_castsi128_ps(_mm_cmpgt_epi32(_mm_xor_si128(ids, sign), xi_signed));
  const __m128 a = _mm_castsi128_ps(d);
  return _mm_castps_si128(_mm_or_ps(_mm_cmpgt_ps(a, x), _mm_and_ps(_mm_cmpeq_ps(a, x), later_id)));
}
// Lane e of the result is lane e - 1 of `now`, lane 0 is lane 3 of `before`.
inline __m128i shifted_in(__m128i now, __m128i before) {
  return _mm_or_si128(_mm_slli_si128(now, 4), _mm_srli_si128(before, 12));
}
inline __m128i blend128(__m128i mask, __m128i a, __m128i b) {  // mask ? a : b
  return _mm_or_si128(_mm_and_si128(mask, a), _mm_andnot_si128(mask, b));
}
#endif

inline float offer_neighbour_baseline(float* row_d2, uint32_t* row_ids, uint32_t k, float d2, uint32_t id) {
#if defined(__SSE2__)
  const __m128 x = _mm_set1_ps(d2);
  const __m128i xi = _mm_set1_epi32(int(id));
  const __m128i xi_signed = _mm_xor_si128(xi, _mm_set1_epi32(int(0x80000000u)));  // unsigned order as signed
  auto load = [](const void* p) { return _mm_loadu_si128(static_cast<const __m128i*>(p)); };
  const uint32_t blocks = (k + 3) / 4;
  __m128i now = load(row_d2 + 4 * (blocks - 1)), now_i = load(row_ids + 4 * (blocks - 1));
  __m128i now_greater = greater_entries(now, now_i, x, xi_signed);
  // From the last block down, so that each block reads the one before it unchanged.
  for (uint32_t b = blocks; b-- > 0;) {
    __m128i before = _mm_setzero_si128(), before_i = before, before_greater = before;
    if (b > 0) {
      before = load(row_d2 + 4 * (b - 1));
      before_i = load(row_ids + 4 * (b - 1));
      before_greater = greater_entries(before, before_i, x, xi_signed);
    }
    const __m128i shift = shifted_in(now_greater, before_greater);
    const __m128i place = _mm_andnot_si128(shift, now_greater);
    const __m128i nd = blend128(shift, shifted_in(now, before), blend128(place, _mm_castps_si128(x), now));
    const __m128i ni = blend128(shift, shifted_in(now_i, before_i), blend128(place, xi, now_i));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(row_d2 + 4 * b), nd);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(row_ids + 4 * b), ni);
    now = before;
    now_i = before_i;
    now_greater = before_greater;
  }
#else
  for (uint32_t at = k; at-- > 0;) {
    const bool shift = at > 0 && (row_d2[at - 1] > d2 || (row_d2[at - 1] == d2 && row_ids[at - 1] > id));
    const bool place = !shift && (row_d2[at] > d2 || (row_d2[at] == d2 && row_ids[at] > id));
    if (shift) {
      row_d2[at] = row_d2[at - 1];
      row_ids[at] = row_ids[at - 1];
    } else if (place) {
      row_d2[at] = d2;
      row_ids[at] = id;
    }
  }
#endif
  return row_d2[k - 1];
}

#if defined(MENISCUS_KDTREE_AVX512)
// Entries of `d` greater than (x, xi), as greater_entries above, eight at a time.
MENISCUS_KDTREE_AVX2_TARGET inline __m256i greater_entries_avx2(__m256 d, __m256i ids, __m256 x, __m256i xi_signed) {
  const __m256i sign = _mm256_set1_epi32(int(0x80000000u));
  const __m256 later_id = _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_xor_si256(ids, sign), xi_signed));
  return _mm256_castps_si256(
      _mm256_or_ps(_mm256_cmp_ps(d, x, _CMP_GT_OQ), _mm256_and_ps(_mm256_cmp_ps(d, x, _CMP_EQ_OQ), later_id)));
}
// Lane e of the result is lane e - 1 of `now`, lane 0 is lane 7 of `before`: each rotated up a
// lane across the halves, then lane 0 taken from `before`.
MENISCUS_KDTREE_AVX2_TARGET inline __m256i shifted_in_avx2(__m256i now, __m256i before) {
  const __m256i up = _mm256_setr_epi32(7, 0, 1, 2, 3, 4, 5, 6);
  return _mm256_blend_epi32(_mm256_permutevar8x32_epi32(now, up), _mm256_permutevar8x32_epi32(before, up), 0x01);
}

// The same insertion, eight entries at a time (kListBlock is two blocks of eight).
MENISCUS_KDTREE_AVX2_TARGET inline float offer_neighbour_avx2(float* row_d2, uint32_t* row_ids, uint32_t k, float d2,
                                                              uint32_t id) {
  const __m256 x = _mm256_set1_ps(d2);
  const __m256i xi = _mm256_set1_epi32(int(id));
  const __m256i xi_signed = _mm256_xor_si256(xi, _mm256_set1_epi32(int(0x80000000u)));
  const uint32_t blocks = (k + 7) / 8;
  __m256i now = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(row_d2 + 8 * (blocks - 1)));
  __m256i now_i = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(row_ids + 8 * (blocks - 1)));
  __m256i now_greater = greater_entries_avx2(_mm256_castsi256_ps(now), now_i, x, xi_signed);
  for (uint32_t b = blocks; b-- > 0;) {
    __m256i before = _mm256_setzero_si256(), before_i = before, before_greater = before;
    if (b > 0) {
      before = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(row_d2 + 8 * (b - 1)));
      before_i = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(row_ids + 8 * (b - 1)));
      before_greater = greater_entries_avx2(_mm256_castsi256_ps(before), before_i, x, xi_signed);
    }
    const __m256i shift = shifted_in_avx2(now_greater, before_greater);
    const __m256i place = _mm256_andnot_si256(shift, now_greater);
    const __m256i nd =
        _mm256_blendv_epi8(_mm256_blendv_epi8(now, _mm256_castps_si256(x), place), shifted_in_avx2(now, before), shift);
    const __m256i ni =
        _mm256_blendv_epi8(_mm256_blendv_epi8(now_i, xi, place), shifted_in_avx2(now_i, before_i), shift);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(row_d2 + 8 * b), nd);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(row_ids + 8 * b), ni);
    now = before;
    now_i = before_i;
    now_greater = before_greater;
  }
  return row_d2[k - 1];
}

// A list of k <= kListBlock entries held in four AVX2 registers while one query tests a leaf,
// with the insertion of offer_neighbour_avx2: offers to the same list follow each other closely,
// and in memory each would wait for the previous one's stores to forward. Entry e - 1's place
// in the register before (`prev`) is shared by the data, the ids and, without ties, the shift:
// entry e shifts where entry e - 1 is greater than the offer.
class Avx2ShortList {
 public:
  MENISCUS_KDTREE_AVX2_TARGET Avx2ShortList(float* row_d2, uint32_t* row_ids, uint32_t k)
      : row_d2_(row_d2),
        row_ids_(row_ids),
        kth_in_high_(k > 8),
        kth_lane_(_mm256_set1_epi32(int((k - 1) % 8))),
        low_(_mm256_loadu_ps(row_d2)),
        high_(_mm256_loadu_ps(row_d2 + 8)),
        low_ids_(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(row_ids))),
        high_ids_(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(row_ids + 8))) {}

  MENISCUS_KDTREE_AVX2_TARGET void offer(float d2, uint32_t id) {
    const __m256 x = _mm256_set1_ps(d2);
    const __m256i xi = _mm256_set1_epi32(int(id));
    const __m256 prev = shifted_in(low_, _mm256_setzero_ps()), prev_high = shifted_in(high_, low_);
    const __m256i prev_ids = shifted_in_avx2(low_ids_, _mm256_setzero_si256());
    const __m256i prev_high_ids = shifted_in_avx2(high_ids_, low_ids_);
    __m256 greater = _mm256_cmp_ps(low_, x, _CMP_GT_OQ), greater_high = _mm256_cmp_ps(high_, x, _CMP_GT_OQ);
    __m256 shift = _mm256_cmp_ps(prev, x, _CMP_GT_OQ), shift_high = _mm256_cmp_ps(prev_high, x, _CMP_GT_OQ);
    const __m256 ties = _mm256_or_ps(_mm256_cmp_ps(low_, x, _CMP_EQ_OQ), _mm256_cmp_ps(high_, x, _CMP_EQ_OQ));
    if (__builtin_expect(!_mm256_testz_ps(ties, ties), 0)) {
      const __m256i xi_signed = _mm256_xor_si256(xi, _mm256_set1_epi32(int(0x80000000u)));
      greater = _mm256_castsi256_ps(greater_entries_avx2(low_, low_ids_, x, xi_signed));
      greater_high = _mm256_castsi256_ps(greater_entries_avx2(high_, high_ids_, x, xi_signed));
      shift = shifted_in(greater, _mm256_setzero_ps());
      shift_high = shifted_in(greater_high, greater);
    }
    // Where greater: the offer, or the entry before where that is greater too. Else unchanged.
    low_ = _mm256_blendv_ps(low_, _mm256_blendv_ps(x, prev, shift), greater);
    high_ = _mm256_blendv_ps(high_, _mm256_blendv_ps(x, prev_high, shift_high), greater_high);
    low_ids_ = blend(low_ids_, blend(xi, prev_ids, shift), greater);
    high_ids_ = blend(high_ids_, blend(xi, prev_high_ids, shift_high), greater_high);
  }

  // The k-th squared distance (+inf while fewer than k are held).
  MENISCUS_KDTREE_AVX2_TARGET float kth() const {
    return _mm256_cvtss_f32(_mm256_permutevar8x32_ps(kth_in_high_ ? high_ : low_, kth_lane_));
  }

  MENISCUS_KDTREE_AVX2_TARGET void store() const {
    _mm256_storeu_ps(row_d2_, low_);
    _mm256_storeu_ps(row_d2_ + 8, high_);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(row_ids_), low_ids_);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(row_ids_ + 8), high_ids_);
  }

 private:
  // shifted_in_avx2 of float lanes.
  MENISCUS_KDTREE_AVX2_TARGET static __m256 shifted_in(__m256 now, __m256 before) {
    return _mm256_castsi256_ps(shifted_in_avx2(_mm256_castps_si256(now), _mm256_castps_si256(before)));
  }
  MENISCUS_KDTREE_AVX2_TARGET static __m256i blend(__m256i a, __m256i b, __m256 mask) {  // mask ? b : a
    return _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b), mask));
  }

  float* row_d2_;
  uint32_t* row_ids_;
  bool kth_in_high_;
  __m256i kth_lane_;
  __m256 low_, high_;
  __m256i low_ids_, high_ids_;
};

// Equal squared distances are rare (duplicate points, symmetric grids): their ids are compared
// only when some entry ties with the offer.
MENISCUS_KDTREE_AVX512_TARGET inline __mmask16 greater_entries(__m512 d, __m512i ids, __m512 x, __m512i xi) {
  const __mmask16 greater = _mm512_cmp_ps_mask(d, x, _CMP_GT_OQ);
  const __mmask16 equal = _mm512_cmp_ps_mask(d, x, _CMP_EQ_OQ);
  if (__builtin_expect(equal != 0, 0)) return greater | _mm512_mask_cmpgt_epu32_mask(equal, ids, xi);
  return greater;
}

// The same insertion, sixteen entries at a time. (The shifts use the all-lanes mask form of
// alignr: the plain one starts from an undefined register that GCC 12 reports as maybe
// uninitialised.)
MENISCUS_KDTREE_AVX512_TARGET inline float offer_neighbour_avx512(float* row_d2, uint32_t* row_ids, uint32_t k,
                                                                  float d2, uint32_t id) {
  const __m512 x = _mm512_set1_ps(d2);
  const __m512i xi = _mm512_set1_epi32(int(id));
  const uint32_t blocks = (k + kListBlock - 1) / kListBlock;
  __m512 now = _mm512_loadu_ps(row_d2 + kListBlock * (blocks - 1));
  __m512i now_i = _mm512_loadu_si512(row_ids + kListBlock * (blocks - 1));
  __mmask16 now_greater = greater_entries(now, now_i, x, xi);
  for (uint32_t b = blocks; b-- > 0;) {
    __m512 before = _mm512_setzero_ps();
    __m512i before_i = _mm512_setzero_si512();
    __mmask16 before_greater = 0;
    if (b > 0) {
      before = _mm512_loadu_ps(row_d2 + kListBlock * (b - 1));
      before_i = _mm512_loadu_si512(row_ids + kListBlock * (b - 1));
      before_greater = greater_entries(before, before_i, x, xi);
    }
    const __mmask16 shift = __mmask16(now_greater << 1 | before_greater >> 15);
    const __mmask16 place = __mmask16(now_greater & ~shift);
    const __m512i now_bits = _mm512_castps_si512(now);
    const __m512 prev = _mm512_castsi512_ps(
        _mm512_mask_alignr_epi32(now_bits, __mmask16(0xFFFF), now_bits, _mm512_castps_si512(before), 15));
    const __m512i prev_i = _mm512_mask_alignr_epi32(now_i, __mmask16(0xFFFF), now_i, before_i, 15);
    _mm512_storeu_ps(row_d2 + kListBlock * b, _mm512_mask_blend_ps(shift, _mm512_mask_blend_ps(place, now, x), prev));
    _mm512_storeu_si512(row_ids + kListBlock * b,
                        _mm512_mask_blend_epi32(shift, _mm512_mask_blend_epi32(place, now_i, xi), prev_i));
    now = before;
    now_i = before_i;
    now_greater = before_greater;
  }
  return row_d2[k - 1];
}
#endif

}  // namespace meniscus::sim::kdtree
