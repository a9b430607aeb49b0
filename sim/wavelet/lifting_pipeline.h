#pragma once
// The lifting steps of a line (or strip of lines) in scratch, run as the bands arrive: after
// each chunk of band indices is loaded, every step lifts as far as the values it reads are
// final, so a strip's chunk goes through all steps while it is in L1 instead of each step
// sweeping the whole strip out of L2 (a 1080-sample strip of 64 int32 lanes is 276 KB). Every
// target sample is still lifted once, from the same source values, in the same arithmetic:
// the results are those of one sweep per step, bit for bit.
//
// The borders need care. A step reads its source band's margins, mirrored copies of samples
// near the band's ends, and those copies must hold the values of the step before, not of a
// later step that also lifts that band. So a step extends its source's top margin once the
// first kTopReach source samples are final (later steps cannot have touched them yet: they wait
// for this step), and its bottom margin once the whole source is final; and the next step,
// which lifts that source band, leaves the band's last kBottomReach samples alone until then
// (and, throughout, every sample the step before has yet to read).
// Internal to the CPU backend.
#include <algorithm>
#include <cstddef>
#include <utility>

#include "sim/wavelet/lifting_narrow.h"
#include "sim/wavelet/lifting_scheme.h"

namespace meniscus::sim::wavelet::cpu_detail {

constexpr long kMargin = 3;  // the widest step reaches two samples beyond its band; three is safe
// Where mirrored margin samples come from, for bands of signals of at least kLongSignal samples:
// the first kTopReach band samples (-3..-1 mirror to at most 3) and the last kBottomReach
// (count..count+2 mirror back to at least count - 4). Shorter signals wait for whole bands.
constexpr long kLongSignal = 8;
constexpr long kTopReach = 4;
constexpr long kBottomReach = 5;

// One band in scratch: `lanes` values per band index, index -kMargin first.
template <class T>
struct Band {
  T* origin;  // index 0
  long count;
  long lanes;
  T* at(long i) const { return origin + i * lanes; }
};

template <class T>
void mirror_into(const Band<T>& band, long to, int parity, long n, long lane_count) {
  const T* from = band.at(mirrored_band_index(to, parity, n));
  T* into = band.at(to);
  for (long c = 0; c < lane_count; ++c) into[c] = from[c];
}

// Target indices [begin, end) of step I.
template <class T, Wavelet W, int I, bool Inverse, bool SingleLane>
void lift_range(const Band<T>& target, const Band<T>& source, long begin, long end, long lane_count) {
  constexpr LiftingStep step = lifting_scheme(W).steps[I];
  // __restrict: the bands never overlap, and without it GCC guards the vector loop with an
  // overlap test that the update steps (source behind target in scratch) fail at run time.
  if constexpr (SingleLane) {
    T* __restrict t = target.origin;
    const T* __restrict s = source.origin + step.first;
    for (long k = begin; k < end; ++k) t[k] = lift_cpu<T, W, I, Inverse>(t[k], s + k, 1);
  } else {
    const long lanes = target.lanes;
    for (long k = begin; k < end; ++k) {
      T* __restrict t = target.at(k);
      const T* __restrict s = source.at(k + step.first);
      for (long c = 0; c < lane_count; ++c) t[c] = lift_cpu<T, W, I, Inverse>(t[c], s + c, lanes);
    }
  }
}

// How far each step has got (steps in the order they run: reversed for the inverse).
struct LiftProgress {
  long done[4] = {0, 0, 0, 0};  // target indices lifted
  bool top[4] = {false, false, false, false};
  bool bottom[4] = {false, false, false, false};
};

template <class T, Wavelet W, int S, bool Inverse, bool SingleLane>
void advance_step(const Band<T>& low, const Band<T>& high, long n, long lane_count, long loaded_low, long loaded_high,
                  LiftProgress& p) {
  constexpr LiftingScheme scheme = lifting_scheme(W);
  constexpr int I = Inverse ? scheme.count - 1 - S : S;
  constexpr LiftingStep step = scheme.steps[I];
  const Band<T>& target = step.updates_even ? low : high;
  const Band<T>& source = step.updates_even ? high : low;
  const int parity = step.updates_even ? 1 : 0;
  const long loaded_target = step.updates_even ? loaded_low : loaded_high;
  // Steps alternate bands, so this step's source is the previous step's target.
  const long ready = S == 0 ? (step.updates_even ? loaded_high : loaded_low) : p.done[S - 1];
  if (!p.top[S]) {
    const long needed = n >= kLongSignal ? std::min(kTopReach, source.count) : source.count;
    if (ready < needed) return;
    for (long i = -kMargin; i < 0; ++i) mirror_into(source, i, parity, n, lane_count);
    p.top[S] = true;
  }
  long limit;
  if (ready == source.count) {
    if (!p.bottom[S]) {
      for (long i = source.count; i < source.count + kMargin; ++i) mirror_into(source, i, parity, n, lane_count);
      p.bottom[S] = true;
    }
    limit = target.count;
  } else {
    limit = ready - (step.first + step.taps - 1);
  }
  limit = std::min(limit, loaded_target);
  if constexpr (S > 0) {
    // The previous step reads this target band (its source): leave alone what it has yet to
    // read, from its next target's first source sample on, and, until it has taken its bottom
    // margin's copies, the band's end. (Short signals: the whole band.)
    constexpr LiftingStep previous = scheme.steps[Inverse ? I + 1 : I - 1];
    const long previous_count = previous.updates_even ? low.count : high.count;
    if (p.done[S - 1] < previous_count) limit = std::min(limit, p.done[S - 1] + previous.first);
    if (!p.bottom[S - 1]) limit = std::min(limit, n >= kLongSignal ? target.count - kBottomReach : 0L);
  }
  if (limit > p.done[S]) {
    lift_range<T, W, I, Inverse, SingleLane>(target, source, p.done[S], limit, lane_count);
    p.done[S] = limit;
  }
}

// Every step as far as the `loaded_low` and `loaded_high` first band indices allow; with both
// bands loaded, the lifting is complete.
template <class T, Wavelet W, bool Inverse, bool SingleLane>
void advance_steps(const Band<T>& low, const Band<T>& high, long n, long lane_count, long loaded_low, long loaded_high,
                   LiftProgress& p) {
  constexpr LiftingScheme scheme = lifting_scheme(W);
  [&]<size_t... S>(std::index_sequence<S...>) {
    (advance_step<T, W, int(S), Inverse, SingleLane>(low, high, n, lane_count, loaded_low, loaded_high, p), ...);
  }
  (std::make_index_sequence<size_t(scheme.count)>{});
}

}  // namespace meniscus::sim::wavelet::cpu_detail
