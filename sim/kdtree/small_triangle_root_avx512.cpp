// prepare_avx512 and best_split_avx512 (small_triangle_root_avx512.h). Every float operation is
// the portable version's, in its order and unfused (-ffp-contract=off for this library), so the
// costs compare equal to the bit.
#include "sim/kdtree/small_triangle_root_avx512.h"

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define MENISCUS_SMALL_STAGE_AVX512 1
#define MENISCUS_SMALL_STAGE_TARGET __attribute__((target("avx512f,avx512dq,avx512vl,avx512vpopcntdq,bmi2")))
#endif

#include <cmath>

namespace meniscus::sim::kdtree {

#if defined(MENISCUS_SMALL_STAGE_AVX512)

bool small_stage_avx512_available() {
  static const bool available = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
                                __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vpopcntdq") &&
                                __builtin_cpu_supports("bmi2");
  return available;
}

namespace {

// The root's n box ends along one axis, in four registers of sixteen (masked past n).
struct Ends {
  __m512 v[4];
};

MENISCUS_SMALL_STAGE_TARGET Ends load_ends(const float* ends, uint32_t n) {
  Ends e;
  for (uint32_t q = 0; q < 4; ++q) {
    const uint32_t first = 16 * q;
    const __mmask16 live = first >= n ? 0 : (n - first >= 16 ? 0xffff : __mmask16((1u << (n - first)) - 1));
    e.v[q] = _mm512_maskz_loadu_ps(live, ends + first);
  }
  return e;
}

// The 64-bit mask of the triangles j whose end compares with `plane` as `kPredicate` says.
template <int kPredicate>
MENISCUS_SMALL_STAGE_TARGET uint64_t compare(const Ends& e, __m512 plane) {
  uint64_t bits = 0;
  for (uint32_t q = 0; q < 4; ++q) bits |= uint64_t(_mm512_cmp_ps_mask(e.v[q], plane, kPredicate)) << (16 * q);
  return bits;
}

}  // namespace

MENISCUS_SMALL_STAGE_TARGET void prepare_avx512(SmallTriangleRoot& root) {
  const uint32_t n = root.n;
  const uint64_t live = n == 64 ? ~uint64_t(0) : (uint64_t(1) << n) - 1;
  for (uint32_t axis = 0; axis < 3; ++axis) {
    const float* l = root.lo[axis];
    const float* h = root.hi[axis];
    const Ends lo = load_ends(l, n), hi = load_ends(h, n);
    uint64_t flat_anywhere = 0;  // boxes flat along the axis
    for (uint32_t q = 0; q < 4; ++q)
      flat_anywhere |= uint64_t(_mm512_cmp_ps_mask(lo.v[q], hi.v[q], _CMP_EQ_OQ)) << (16 * q);
    flat_anywhere &= live;
    for (uint32_t i = 0; i < n; ++i)
      for (uint32_t face = 0; face < 2; ++face) {
        const float position = face ? h[i] : l[i];
        const __m512 plane = _mm512_set1_ps(position);
        const uint64_t below = compare<_CMP_LT_OQ>(lo, plane) & live;
        const uint64_t flat = compare<_CMP_EQ_OQ>(lo, plane) & flat_anywhere;
        const uint64_t above = compare<_CMP_GT_OQ>(hi, plane) & live;
        root.add(axis, i, face, position, below, flat, above);
      }
  }
}

MENISCUS_SMALL_STAGE_TARGET SmallSplit best_split_avx512(const SmallTriangleRoot& root, const Box& box, uint64_t set,
                                                         const TriangleKdParams& params) {
  SmallSplit best;
  const float area = box.half_area();
  if (set == 0 || !(area > 0.0f)) return best;
  float best_cost = float(__builtin_popcountll(set));  // SAH_0: the node as a leaf
  const glm::vec3 d = glm::max(box.hi - box.lo, glm::vec3(0.0f));
  const __m512i set_v = _mm512_set1_epi64(int64_t(set));
  const __m256 zero = _mm256_setzero_ps(), area_v = _mm256_set1_ps(area),
               traversal = _mm256_set1_ps(params.traversal_cost);
  const uint32_t blocks = (2 * root.n + 7) / 8;  // eight candidates: four triangles' two faces
  for (uint32_t axis = 0; axis < 3; ++axis) {
    const float lo = box.lo[axis], hi = box.hi[axis];
    const __m256 lo_v = _mm256_set1_ps(lo), hi_v = _mm256_set1_ps(hi);
    const float u = d[(axis + 1) % 3], w = d[(axis + 2) % 3], across = u * w;
    const __m256 u_v = _mm256_set1_ps(u), w_v = _mm256_set1_ps(w), across_v = _mm256_set1_ps(across);
    // A child's half_area() with extent `a` along the axis, term for term as best_split adds.
    const auto child_area = [&](__m256 a) MENISCUS_SMALL_STAGE_TARGET {
      const __m256 au = _mm256_mul_ps(a, u_v), wa = _mm256_mul_ps(w_v, a);
      if (axis == 0) return _mm256_add_ps(_mm256_add_ps(au, across_v), wa);
      if (axis == 1) return _mm256_add_ps(_mm256_add_ps(wa, au), across_v);
      return _mm256_add_ps(_mm256_add_ps(across_v, wa), au);
    };
    for (uint32_t b = 0; b < blocks; ++b) {
      const uint32_t triangles = uint32_t(set >> (4 * b)) & 0xfu;
      if (!triangles) continue;
      const __mmask8 in_set = __mmask8(_pdep_u32(triangles, 0x55u) * 3u);  // both faces of each
      const uint32_t first = 8 * b;
      const __m256 p = _mm256_maskz_loadu_ps(in_set, root.position_[axis] + first);
      __m512i left = _mm512_and_si512(_mm512_maskz_loadu_epi64(in_set, root.left_[axis] + first), set_v);
      __m512i right = _mm512_and_si512(_mm512_maskz_loadu_epi64(in_set, root.right_[axis] + first), set_v);
      const __m512i flat = _mm512_and_si512(_mm512_maskz_loadu_epi64(in_set, root.flat_[axis] + first), set_v);
      const __mmask8 has_flat = _mm512_test_epi64_mask(flat, flat);
      const __mmask8 above_lo = _mm256_cmp_ps_mask(p, lo_v, _CMP_GT_OQ), below_hi = _mm256_cmp_ps_mask(p, hi_v, _CMP_LT_OQ);
      const __mmask8 on_hi = _mm256_cmp_ps_mask(p, hi_v, _CMP_EQ_OQ) & above_lo;
      const __mmask8 on_lo = _mm256_cmp_ps_mask(p, lo_v, _CMP_EQ_OQ) & below_hi;
      const __mmask8 valid = in_set & ((above_lo & below_hi) | ((on_hi | on_lo) & has_flat));
      if (!valid) continue;
      // On the node's upper face the flat triangles go up, into the flat child.
      left = _mm512_mask_andnot_epi64(left, on_hi, flat, left);
      right = _mm512_mask_or_epi64(right, on_hi, right, flat);
      const __m256 count_left = _mm512_cvtepi64_ps(_mm512_popcnt_epi64(left));
      const __m256 count_right = _mm512_cvtepi64_ps(_mm512_popcnt_epi64(right));
      const __m256 area_left = child_area(_mm256_max_ps(_mm256_sub_ps(p, lo_v), zero));
      const __m256 area_right = child_area(_mm256_max_ps(_mm256_sub_ps(hi_v, p), zero));
      const __m256 cost = _mm256_add_ps(
          _mm256_div_ps(_mm256_add_ps(_mm256_mul_ps(count_left, area_left), _mm256_mul_ps(count_right, area_right)),
                        area_v),
          traversal);
      // The candidates in order, a cost replacing the best only when lower (as best_split's):
      // the block's cheapest replaces it, the first of equal ones.
      // A NaN cost (an infinite node) never wins, as in best_split; min_ps would let it.
      const __mmask8 comparable = valid & _mm256_cmp_ps_mask(cost, cost, _CMP_ORD_Q);
      const __m256 live_cost = _mm256_mask_blend_ps(comparable, _mm256_set1_ps(INFINITY), cost);
      __m256 cheapest = _mm256_min_ps(live_cost, _mm256_permute2f128_ps(live_cost, live_cost, 1));
      cheapest = _mm256_min_ps(cheapest, _mm256_permute_ps(cheapest, 0b01001110));
      cheapest = _mm256_min_ps(cheapest, _mm256_permute_ps(cheapest, 0b10110001));
      const float block_cost = _mm256_cvtss_f32(cheapest);
      if (!(block_cost < best_cost)) continue;
      const uint32_t lane = uint32_t(__builtin_ctz(comparable & _mm256_cmp_ps_mask(live_cost, cheapest, _CMP_EQ_OQ)));
      best_cost = block_cost;
      alignas(64) uint64_t lefts[8], rights[8];
      _mm512_store_si512(lefts, left);
      _mm512_store_si512(rights, right);
      best = {true, axis, root.position_[axis][first + lane], lefts[lane], rights[lane]};
    }
  }
  return best;
}

#else

bool small_stage_avx512_available() { return false; }
void prepare_avx512(SmallTriangleRoot& root) { root.prepare(); }
SmallSplit best_split_avx512(const SmallTriangleRoot& root, const Box& box, uint64_t set,
                             const TriangleKdParams& params) {
  return root.best_split(box, set, params);
}

#endif

}  // namespace meniscus::sim::kdtree
