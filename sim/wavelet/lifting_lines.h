#pragma once
// The CPU lifting of one line, or of a strip of adjacent lines lifted together: the bands are
// de-interleaved into scratch with kMargin slots either side, each step first mirrors the
// source band into its margins and then lifts the whole target band in one loop (constant
// taps, vectorised across the band or across the strip's lanes), and the bands go back
// approximations first. Internal to wavelet_cpu.cpp.
#include <cstddef>
#include <utility>

#include "sim/wavelet/lifting_scheme.h"

namespace meniscus::sim::wavelet::cpu_detail {

constexpr long kMargin = 3;  // the widest step reaches two samples beyond its band; three is safe

// One band in scratch: `lanes` values per band index, index -kMargin first.
template <class T>
struct Band {
  T* origin;  // index 0
  long count;
  long lanes;
  T* at(long i) const { return origin + i * lanes; }
};

template <class T>
void extend(const Band<T>& band, int parity, long n, long lane_count) {
  auto copy = [&](long to) {
    const T* from = band.at(mirrored_band_index(to, parity, n));
    T* into = band.at(to);
    for (long c = 0; c < lane_count; ++c) into[c] = from[c];
  };
  for (long i = -kMargin; i < 0; ++i) copy(i);
  for (long i = band.count; i < band.count + kMargin; ++i) copy(i);
}

template <class T, Wavelet W, int I, bool Inverse, bool SingleLane>
void lift_band(const Band<T>& target, const Band<T>& source, long lane_count) {
  constexpr LiftingStep step = lifting_scheme(W).steps[I];
  if constexpr (SingleLane) {
    T* t = target.origin;
    const T* s = source.origin + step.first;
    for (long k = 0; k < target.count; ++k) t[k] = lift_sample(t[k], s + k, 1, step, Inverse);
  } else {
    const long lanes = target.lanes;
    for (long k = 0; k < target.count; ++k) {
      T* __restrict t = target.at(k);
      const T* __restrict s = source.at(k + step.first);
      for (long c = 0; c < lane_count; ++c) t[c] = lift_sample(t[c], s + c, lanes, step, Inverse);
    }
  }
}

template <class T, Wavelet W, int I, bool Inverse, bool SingleLane>
void run_step(const Band<T>& low, const Band<T>& high, long n, long lane_count) {
  constexpr LiftingStep step = lifting_scheme(W).steps[I];
  const Band<T>& target = step.updates_even ? low : high;
  const Band<T>& source = step.updates_even ? high : low;
  extend(source, step.updates_even ? 1 : 0, n, lane_count);
  lift_band<T, W, I, Inverse, SingleLane>(target, source, lane_count);
}

template <class T>
void scale(const Band<T>& band, T factor, long lane_count) {
  for (long k = 0; k < band.count; ++k) {
    T* b = band.at(k);
    for (long c = 0; c < lane_count; ++c) b[c] *= factor;
  }
}

// Lifts bands already in scratch (forward: split -> steps -> scale; inverse: the reverse).
template <class T, Wavelet W, bool Inverse, bool SingleLane>
void lift_bands(const Band<T>& low, const Band<T>& high, long n, long lane_count) {
  constexpr LiftingScheme scheme = lifting_scheme(W);
  constexpr bool scaled = std::is_floating_point_v<T> && (scheme.low_scale != 1.0f || scheme.high_scale != 1.0f);
  [&]<size_t... I>(std::index_sequence<I...>) {
    if constexpr (Inverse) {
      if constexpr (scaled) {
        scale(low, T(1) / T(scheme.low_scale), lane_count);
        scale(high, T(1) / T(scheme.high_scale), lane_count);
      }
      (run_step<T, W, int(scheme.count - 1 - I), true, SingleLane>(low, high, n, lane_count), ...);
    } else {
      (run_step<T, W, int(I), false, SingleLane>(low, high, n, lane_count), ...);
      if constexpr (scaled) {
        scale(low, T(scheme.low_scale), lane_count);
        scale(high, T(scheme.high_scale), lane_count);
      }
    }
  }
  (std::make_index_sequence<size_t(scheme.count)>{});
}

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
void lift_row(T* row, long n, T* scratch) {
  auto [low, high] = bands_in(scratch, n, 1);
  T* __restrict l = low.origin;
  T* __restrict h = high.origin;
  if constexpr (Inverse) {
    for (long k = 0; k < low.count; ++k) l[k] = row[k];
    for (long k = 0; k < high.count; ++k) h[k] = row[low.count + k];
  } else {
    for (long k = 0; k < high.count; ++k) {
      l[k] = row[2 * k];
      h[k] = row[2 * k + 1];
    }
    if (low.count > high.count) l[high.count] = row[n - 1];
  }
  lift_bands<T, W, Inverse, true>(low, high, n, 1);
  if constexpr (Inverse) {
    for (long k = 0; k < high.count; ++k) {
      row[2 * k] = l[k];
      row[2 * k + 1] = h[k];
    }
    if (low.count > high.count) row[n - 1] = l[high.count];
  } else {
    for (long k = 0; k < low.count; ++k) row[k] = l[k];
    for (long k = 0; k < high.count; ++k) row[low.count + k] = h[k];
  }
}

// `lane_count` adjacent lines (contiguous lanes) of n samples `stride` apart, in place.
template <class T, Wavelet W, bool Inverse>
void lift_strip(T* base, long n, long stride, long lanes, long lane_count, T* scratch) {
  auto [low, high] = bands_in(scratch, n, lanes);
  auto load = [&](T* into, long sample) {
    const T* from = base + sample * stride;
    for (long c = 0; c < lane_count; ++c) into[c] = from[c];
  };
  auto store = [&](const T* from, long sample) {
    T* into = base + sample * stride;
    for (long c = 0; c < lane_count; ++c) into[c] = from[c];
  };
  for (long k = 0; k < low.count; ++k) load(low.at(k), Inverse ? k : 2 * k);
  for (long k = 0; k < high.count; ++k) load(high.at(k), Inverse ? low.count + k : 2 * k + 1);
  lift_bands<T, W, Inverse, false>(low, high, n, lane_count);
  for (long k = 0; k < low.count; ++k) store(low.at(k), Inverse ? 2 * k : k);
  for (long k = 0; k < high.count; ++k) store(high.at(k), Inverse ? 2 * k + 1 : low.count + k);
}

}  // namespace meniscus::sim::wavelet::cpu_detail
