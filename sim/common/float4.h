#pragma once
// Four floats that arithmetic treats lane by lane, so that a formula written once as a template
// (weno5.h, upwind.h) runs on four voxels at a time on the CPU and rounds every lane exactly as the
// float version rounds it: the same operations in the same order, each rounded on its own
// (the callers are built without contraction into fused multiply-adds). SSE2, the x86-64
// baseline: where it is missing (MENISCUS_HAS_FLOAT4 undefined) callers keep to floats.
#if defined(__SSE2__)
#include <emmintrin.h>
#define MENISCUS_HAS_FLOAT4 1

namespace meniscus::sim {

struct Float4 {
  __m128 v;

  static Float4 load(const float* p) { return {_mm_loadu_ps(p)}; }
  void store(float* p) const { _mm_storeu_ps(p, v); }
  static Float4 splat(float x) { return {_mm_set1_ps(x)}; }

  friend Float4 operator+(Float4 a, Float4 b) { return {_mm_add_ps(a.v, b.v)}; }
  friend Float4 operator-(Float4 a, Float4 b) { return {_mm_sub_ps(a.v, b.v)}; }
  friend Float4 operator*(Float4 a, Float4 b) { return {_mm_mul_ps(a.v, b.v)}; }
  friend Float4 operator/(Float4 a, Float4 b) { return {_mm_div_ps(a.v, b.v)}; }
  friend Float4 operator-(Float4 a) { return {_mm_xor_ps(a.v, _mm_set1_ps(-0.0f))}; }
  // std::max(a, b) is (a < b) ? b : a and std::min(a, b) is (b < a) ? b : a; so are these,
  // lane by lane.
  friend Float4 max(Float4 a, Float4 b) { return choose(_mm_cmplt_ps(a.v, b.v), b, a); }
  friend Float4 min(Float4 a, Float4 b) { return choose(_mm_cmplt_ps(b.v, a.v), b, a); }
  friend Float4 max(Float4 a, float b) { return max(a, splat(b)); }
  friend Float4 min(Float4 a, float b) { return min(a, splat(b)); }
  friend Float4 abs(Float4 a) { return {_mm_andnot_ps(_mm_set1_ps(-0.0f), a.v)}; }
  friend Float4 sqrt(Float4 a) { return {_mm_sqrt_ps(a.v)}; }  // correctly rounded, as std::sqrt
  // The lanes where a > b, as a mask for choose (a comparison of lanes has no bool; the
  // templates compare with a constant only, hence the one form).
  friend __m128 operator>(Float4 a, float b) { return _mm_cmpgt_ps(a.v, _mm_set1_ps(b)); }
  // mask ? a : b, lane by lane.
  friend Float4 choose(__m128 mask, Float4 a, Float4 b) {
    return {_mm_or_ps(_mm_and_ps(mask, a.v), _mm_andnot_ps(mask, b.v))};
  }
  // A float on either side is that float in every lane.
  friend Float4 operator+(float a, Float4 b) { return splat(a) + b; }
  friend Float4 operator+(Float4 a, float b) { return a + splat(b); }
  friend Float4 operator-(float a, Float4 b) { return splat(a) - b; }
  friend Float4 operator-(Float4 a, float b) { return a - splat(b); }
  friend Float4 operator*(float a, Float4 b) { return splat(a) * b; }
  friend Float4 operator*(Float4 a, float b) { return a * splat(b); }
  friend Float4 operator/(float a, Float4 b) { return splat(a) / b; }
  friend Float4 operator/(Float4 a, float b) { return a / splat(b); }
};

}  // namespace meniscus::sim
#endif
