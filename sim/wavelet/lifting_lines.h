#pragma once
// The CPU lifting of one line, or of a strip of adjacent lines lifted together: the bands are
// de-interleaved into scratch with kMargin slots either side, lifted (lifting_pipeline.h: a
// row all at once, a strip chunk by chunk as it is loaded; vectorised across the band or
// across the strip's lanes), and go back approximations first. The 9/7's band scaling rides on
// the store (forward) or the load (inverse) instead of sweeping the bands again: the same one
// multiplication per sample.
// Internal to wavelet_cpu.cpp.
#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "sim/wavelet/lifting_pipeline.h"
#include "sim/wavelet/lifting_scheme.h"

namespace meniscus::sim::wavelet::cpu_detail {

// The band scaling of W in storage T, as the store (forward) or the load (inverse) applies it:
// low × low_scale and high × high_scale forward, × their reciprocals (rounded in T) inverse.
template <class T, Wavelet W, bool Inverse>
struct BandScale {
  static constexpr LiftingScheme kScheme = lifting_scheme(W);
  static constexpr bool kScaled =
      std::is_floating_point_v<T> && (kScheme.low_scale != 1.0f || kScheme.high_scale != 1.0f);
  static constexpr T kLow = !kScaled ? T(1) : Inverse ? T(1) / T(kScheme.low_scale) : T(kScheme.low_scale);
  static constexpr T kHigh = !kScaled ? T(1) : Inverse ? T(1) / T(kScheme.high_scale) : T(kScheme.high_scale);
  static T low(T v) {
    if constexpr (kScaled) return v * kLow;
    return v;
  }
  static T high(T v) {
    if constexpr (kScaled) return v * kHigh;
    return v;
  }
};

// Scratch for n samples of `lanes` lanes: both bands with their margins.
inline size_t scratch_size(long n, long lanes) { return size_t(n + 4 * kMargin) * size_t(lanes); }

template <class T>
std::pair<Band<T>, Band<T>> bands_in(T* scratch, long n, long lanes) {
  const long m = low_count(n), d = high_count(n);
  Band<T> low{scratch + kMargin * lanes, m, lanes};
  Band<T> high{scratch + (m + 3 * kMargin) * lanes, d, lanes};
  return {low, high};
}

// One contiguous line of n samples, in place.
template <class T, Wavelet W, bool Inverse>
void lift_row(T* __restrict row, long n, T* scratch) {
  using Scale = BandScale<T, W, Inverse>;
  auto [low, high] = bands_in(scratch, n, 1);
  T* __restrict l = low.origin;
  T* __restrict h = high.origin;
  const long m = low.count, d = high.count;
  if constexpr (Inverse) {
    for (long k = 0; k < m; ++k) l[k] = Scale::low(row[k]);
    for (long k = 0; k < d; ++k) h[k] = Scale::high(row[m + k]);
  } else {
    for (long k = 0; k < d; ++k) {
      l[k] = row[2 * k];
      h[k] = row[2 * k + 1];
    }
    if (m > d) l[d] = row[n - 1];
  }
  LiftProgress progress;
  advance_steps<T, W, Inverse, true>(low, high, n, 1, m, d, progress);
  if constexpr (Inverse) {
    for (long k = 0; k < d; ++k) {
      row[2 * k] = l[k];
      row[2 * k + 1] = h[k];
    }
    if (m > d) row[n - 1] = l[d];
  } else {
    for (long k = 0; k < m; ++k) row[k] = Scale::low(l[k]);
    for (long k = 0; k < d; ++k) row[m + k] = Scale::high(h[k]);
  }
}

// Band indices a strip loads before lifting them: 16 × 64 lanes × 2 bands of int32 is 8 KB.
constexpr long kStripChunk = 16;

// `lane_count` adjacent lines (contiguous lanes) of n samples `stride` apart, in place.
template <class T, Wavelet W, bool Inverse>
void lift_strip(T* base, long n, long stride, long lanes, long lane_count, T* scratch) {
  using Scale = BandScale<T, W, Inverse>;
  auto [low, high] = bands_in(scratch, n, lanes);
  const long m = low.count, d = high.count;
  // Sample rows of band index k in the input and the output.
  auto low_in = [&](long k) { return Inverse ? k : 2 * k; };
  auto high_in = [&](long k) { return Inverse ? m + k : 2 * k + 1; };
  auto low_out = [&](long k) { return Inverse ? 2 * k : k; };
  auto high_out = [&](long k) { return Inverse ? 2 * k + 1 : m + k; };
  // Lifted kStripChunk band indices at a time, right after loading them (lifting_pipeline.h).
  LiftProgress progress;
  for (long chunk = 0; chunk < m; chunk += kStripChunk) {
    const long low_end = std::min(m, chunk + kStripChunk), high_end = std::min(d, chunk + kStripChunk);
    for (long k = chunk; k < low_end; ++k) {
      const T* __restrict from = base + low_in(k) * stride;
      T* __restrict into = low.at(k);
      for (long c = 0; c < lane_count; ++c) into[c] = Inverse ? Scale::low(from[c]) : from[c];
    }
    for (long k = chunk; k < high_end; ++k) {
      const T* __restrict from = base + high_in(k) * stride;
      T* __restrict into = high.at(k);
      for (long c = 0; c < lane_count; ++c) into[c] = Inverse ? Scale::high(from[c]) : from[c];
    }
    advance_steps<T, W, Inverse, false>(low, high, n, lane_count, low_end, high_end, progress);
  }
  for (long k = 0; k < m; ++k) {
    const T* __restrict from = low.at(k);
    T* __restrict into = base + low_out(k) * stride;
    for (long c = 0; c < lane_count; ++c) into[c] = Inverse ? from[c] : Scale::low(from[c]);
  }
  for (long k = 0; k < d; ++k) {
    const T* __restrict from = high.at(k);
    T* __restrict into = base + high_out(k) * stride;
    for (long c = 0; c < lane_count; ++c) into[c] = Inverse ? from[c] : Scale::high(from[c]);
  }
}

}  // namespace meniscus::sim::wavelet::cpu_detail
