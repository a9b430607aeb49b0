#pragma once
// Each wavelet as a sequence of lifting steps (thesis §3.3.2), and the per-sample arithmetic of
// one step, shared literally by the CPU and CUDA backends so integer lifting agrees bit for bit.
// C++17: nvcc compiles this too.
//
// A step lifts one band ("target") from the other ("source"): a predict step lifts the odd
// samples d[k] from the even ones s[k + first + j], an update step the even samples s[k] from
// d[k + first + j], j < taps. Integer lifting adds or subtracts (Σ n_j x_j + rounding) >> shift,
// which floors like JPEG 2000's reversible 5/3 and stays exactly invertible (the inverse
// subtracts the same value, computed from the same untouched source band). Float lifting adds
// Σ w_j x_j, and the Daubechies/CDF 9/7 then scales the bands (low × 1/K, high × K: ITU-T T.800
// Annex F, which OpenJPEG's encoder follows).
#include <cstdint>
#include <type_traits>

#include "sim/common/host_device.h"
#include "sim/wavelet/wavelet.h"

namespace meniscus::sim::wavelet {

struct LiftingStep {
  bool updates_even;  // update step (targets s from d) rather than predict (targets d from s)
  int first;          // offset of the first source sample from the target's index
  int taps;           // 1, 2 or 4; two- and four-tap weights are symmetric
  int numerators[4];  // integer lifting
  int rounding;
  int shift;
  bool subtract;
  float weights[4];  // float lifting: target += Σ weights[j] · source[k + first + j]
};

struct LiftingScheme {
  int count;
  LiftingStep steps[4];
  float low_scale;  // float only; integer lifting is unnormalised
  float high_scale;
};

// CDF 9/7 lifting constants and K, as in T.800 Table F.4 and OpenJPEG's dwt.c.
constexpr float kCdfAlpha = -1.586134342f, kCdfBeta = -0.052980118f, kCdfGamma = 0.882911075f, kCdfDelta = 0.443506852f,
                kCdfK = 1.230174105f;

MENISCUS_HD constexpr LiftingScheme lifting_scheme(Wavelet wavelet) {
  // Integer 9/7: the lifting constants as dyadic fractions (-203/128, -217/4096, 113/128,
  // 1817/4096), unscaled: a reversible approximation of the CDF 9/7, not T.800's irreversible one.
  switch (wavelet) {
    case Wavelet::Haar:  // S transform: d = odd - even, s = even + floor(d / 2)
      return {2,
              {{false, 0, 1, {1, 0, 0, 0}, 0, 0, true, {-1.0f, 0, 0, 0}},
               {true, 0, 1, {1, 0, 0, 0}, 0, 1, false, {0.5f, 0, 0, 0}}},
              1.0f,
              1.0f};
    case Wavelet::LeGall53:  // Table 3.1; JPEG 2000 reversible
      return {2,
              {{false, 0, 2, {1, 1, 0, 0}, 0, 1, true, {-0.5f, -0.5f, 0, 0}},
               {true, -1, 2, {1, 1, 0, 0}, 2, 2, false, {0.25f, 0.25f, 0, 0}}},
              1.0f,
              1.0f};
    case Wavelet::DeslauriersDubuc97:  // (9,7): 4-point cubic prediction, 5/3's update
      return {2,
              {{false, -1, 4, {-1, 9, 9, -1}, 8, 4, true, {1.0f / 16, -9.0f / 16, -9.0f / 16, 1.0f / 16}},
               {true, -1, 2, {1, 1, 0, 0}, 2, 2, false, {0.25f, 0.25f, 0, 0}}},
              1.0f,
              1.0f};
    case Wavelet::DeslauriersDubuc137:  // (13,7): Table 3.2's supports; update weights /32
      return {2,
              {{false, -1, 4, {-1, 9, 9, -1}, 8, 4, true, {1.0f / 16, -9.0f / 16, -9.0f / 16, 1.0f / 16}},
               {true, -2, 4, {-1, 9, 9, -1}, 16, 5, false, {-1.0f / 32, 9.0f / 32, 9.0f / 32, -1.0f / 32}}},
              1.0f,
              1.0f};
    case Wavelet::Cdf97:
      return {4,
              {{false, 0, 2, {203, 203, 0, 0}, 64, 7, true, {kCdfAlpha, kCdfAlpha, 0, 0}},
               {true, -1, 2, {217, 217, 0, 0}, 2048, 12, true, {kCdfBeta, kCdfBeta, 0, 0}},
               {false, 0, 2, {113, 113, 0, 0}, 64, 7, false, {kCdfGamma, kCdfGamma, 0, 0}},
               {true, -1, 2, {1817, 1817, 0, 0}, 2048, 12, false, {kCdfDelta, kCdfDelta, 0, 0}}},
              float(1.0 / 1.230174105),  // rounded once from double, as OpenJPEG's opj_invK
              kCdfK};
  }
  return {0, {}, 1.0f, 1.0f};
}

// Integer arithmetic one size up from the storage, so a step's sum cannot overflow; the result
// is narrowed back (modulo 2^bits: reconstruction stays exact even where coefficients wrap).
template <class T>
using LiftingAccumulator =
    std::conditional_t<std::is_floating_point_v<T>, T, std::conditional_t<(sizeof(T) <= 2), int32_t, int64_t>>;

// The lifted target sample: `source` points at source[k + first], `stride` apart.
template <class T>
MENISCUS_HD inline T lift_sample(T target, const T* source, long stride, const LiftingStep& step, bool inverse) {
  if constexpr (std::is_floating_point_v<T>) {
    T sum;
    if (step.taps == 1)
      sum = step.weights[0] * source[0];
    else if (step.taps == 2)
      sum = step.weights[0] * (source[0] + source[stride]);
    else
      sum =
          step.weights[0] * (source[0] + source[3 * stride]) + step.weights[1] * (source[stride] + source[2 * stride]);
    return inverse ? target - sum : target + sum;
  } else {
    using Acc = LiftingAccumulator<T>;
    Acc sum = 0;
    for (int j = 0; j < step.taps; ++j) sum += Acc(step.numerators[j]) * Acc(source[j * stride]);
    const Acc value = (sum + step.rounding) >> step.shift;
    const bool subtract = step.subtract != inverse;
    return T(subtract ? Acc(target) - value : Acc(target) + value);
  }
}

// Whole-sample symmetric extension: the band index that band index `i` (of the band with
// `parity`, 0 even / 1 odd) mirrors to in a signal of n >= 2 samples.
MENISCUS_HD inline long mirrored_band_index(long i, int parity, long n) {
  long x = 2 * i + parity;
  const long period = 2 * (n - 1);
  x %= period;
  if (x < 0) x += period;
  if (x > n - 1) x = period - x;
  return x / 2;
}

// Band lengths of a signal of n samples: ceil(n/2) even (approximation), floor(n/2) odd.
MENISCUS_HD inline long low_count(long n) { return (n + 1) / 2; }
MENISCUS_HD inline long high_count(long n) { return n / 2; }

}  // namespace meniscus::sim::wavelet
