#pragma once
// The CPU's lifted sample: lift_sample (lifting_scheme.h), except that int32 steps whose value
// is a floored half or quarter of a two-sample sum (Haar, Le Gall 5/3) are computed in 32 bits
// instead of lift_sample's 64. The results are the same bit for bit, for every int32 input;
// what changes is that SSE2 has no 64-bit arithmetic shift, so the 64-bit form runs one sample
// at a time and the 32-bit one four. Internal to the CPU backend.
#include <cstdint>
#include <type_traits>

#include "sim/wavelet/lifting_scheme.h"

namespace meniscus::sim::wavelet::cpu_detail {

// Steps whose value (Σ n_j x_j + rounding) >> shift narrow_value computes exactly in 32 bits.
constexpr bool narrow_exact(const LiftingStep& step) {
  if (step.taps == 1) return step.numerators[0] == 1 && step.rounding == 0 && step.shift <= 1;
  if (step.taps == 2)
    return step.numerators[0] == 1 && step.numerators[1] == 1 &&
           ((step.shift == 1 && step.rounding == 0) || (step.shift == 2 && step.rounding == 2));
  return false;
}

// floor((a + b) / 2) for any int32 a, b. Since a + b = 2(a & b) + (a ^ b), the floored half is
// (a & b) + floor((a ^ b) / 2), and >> on a signed value floors (C++20). No overflow: the
// exact result lies between a and b, so it is an int32, and a two's-complement sum whose exact
// value is representable does not wrap.
inline int32_t floor_half_sum(int32_t a, int32_t b) { return (a & b) + ((a ^ b) >> 1); }

// floor((a + b + 2) / 4) = floor((floor((a + b) / 2) + 1) / 2) (floor(floor(y) / 2) = floor(y / 2)
// for real y), and floor((h + 1) / 2) = (h >> 1) + (h & 1) without forming h + 1, which would
// wrap for h = INT32_MAX.
inline int32_t floor_quarter_sum_rounded(int32_t a, int32_t b) {
  const int32_t h = floor_half_sum(a, b);
  return (h >> 1) + (h & 1);
}

// One lifted sample of step I of W: `source` points at source[k + first], `stride` apart.
template <class T, Wavelet W, int I, bool Inverse>
inline T lift_cpu(T target, const T* source, long stride) {
  constexpr LiftingStep step = lifting_scheme(W).steps[I];
  if constexpr (std::is_same_v<T, int32_t> && narrow_exact(step)) {
    int32_t value;
    if constexpr (step.taps == 1)
      value = source[0] >> step.shift;
    else if constexpr (step.shift == 1)
      value = floor_half_sum(source[0], source[stride]);
    else
      value = floor_quarter_sum_rounded(source[0], source[stride]);
    // Modulo 2^32, as lift_sample's narrowing of its 64-bit result (unsigned: no signed overflow).
    constexpr bool subtract = step.subtract != Inverse;
    const uint32_t t = uint32_t(target), v = uint32_t(value);
    return int32_t(subtract ? t - v : t + v);
  } else {
    return lift_sample(target, source, stride, step, Inverse);
  }
}

}  // namespace meniscus::sim::wavelet::cpu_detail
