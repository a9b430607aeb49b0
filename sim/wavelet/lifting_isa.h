#pragma once
// The line and strip lifting compiled a second time for AVX2, chosen at run time: the build
// targets the x86-64 baseline (SSE2, four lanes), and twice the lanes halves the loops that
// bound the transform once its passes are fused (lifting_pipeline.h). Each AVX2 entry point is
// `flatten`ed: everything it calls is inlined into it and compiled for AVX2 there, so no AVX2
// copy of a shared inline function can stand in for the baseline one at link time (which a
// separate -mavx2 translation unit would risk). AVX2 only, never FMA: a fused multiply-add would
// round float lifting differently from the baseline build and from CUDA (built --fmad=false).
// Internal to wavelet_cpu.cpp.
#include "sim/wavelet/lifting_lines.h"

#if defined(__GNUC__) && defined(__x86_64__)
#define MENISCUS_WAVELET_HAS_AVX2 1
#else
#define MENISCUS_WAVELET_HAS_AVX2 0
#endif

namespace meniscus::sim::wavelet::cpu_detail {

#if MENISCUS_WAVELET_HAS_AVX2
template <class T, Wavelet W, bool Inverse>
__attribute__((target("avx2"), flatten)) void lift_row_avx2(T* row, long n, T* scratch) {
  lift_row<T, W, Inverse>(row, n, scratch);
}

template <class T, Wavelet W, bool Inverse>
__attribute__((target("avx2"), flatten)) void lift_strip_avx2(T* base, long n, long stride, long lanes, long lane_count,
                                                              T* scratch) {
  lift_strip<T, W, Inverse>(base, n, stride, lanes, lane_count, scratch);
}
#endif

template <class T, Wavelet W, bool Inverse>
void lift_row_on(bool avx2, T* row, long n, T* scratch) {
#if MENISCUS_WAVELET_HAS_AVX2
  if (avx2) return lift_row_avx2<T, W, Inverse>(row, n, scratch);
#endif
  (void)avx2;
  lift_row<T, W, Inverse>(row, n, scratch);
}

template <class T, Wavelet W, bool Inverse>
void lift_strip_on(bool avx2, T* base, long n, long stride, long lanes, long lane_count, T* scratch) {
#if MENISCUS_WAVELET_HAS_AVX2
  if (avx2) return lift_strip_avx2<T, W, Inverse>(base, n, stride, lanes, lane_count, scratch);
#endif
  (void)avx2;
  lift_strip<T, W, Inverse>(base, n, stride, lanes, lane_count, scratch);
}

}  // namespace meniscus::sim::wavelet::cpu_detail
