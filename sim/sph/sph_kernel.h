#pragma once
// Vectors and smoothing kernels of the SPH stage, compiled for both backends.
//
// The kernel is the cubic spline (Monaghan 1992) normalised in 3D with support radius h = 4r
// (two lattice spacings: about 33 neighbours in the bulk), the usual DFSPH choice. The cohesion
// kernel is Akinci et al. (2013), same support.
#include <cmath>

#include "sim/common/host_device.h"

namespace meniscus::sim::sph {

struct Vec3 {
  float x, y, z;
};
MENISCUS_HD inline Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
MENISCUS_HD inline Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
MENISCUS_HD inline Vec3 operator*(float s, Vec3 a) { return {s * a.x, s * a.y, s * a.z}; }
MENISCUS_HD inline Vec3& operator+=(Vec3& a, Vec3 b) { return a = a + b; }
MENISCUS_HD inline Vec3& operator-=(Vec3& a, Vec3 b) { return a = a - b; }
MENISCUS_HD inline float dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
MENISCUS_HD inline float length(Vec3 a) { return sqrtf(dot(a, a)); }
// A parameter's float[3] as a Vec3.
inline Vec3 vec(const float v[3]) { return {v[0], v[1], v[2]}; }

// A right-handed orthonormal frame (u, v, n) around the direction `d` (any length): the plane
// of a disk emitter or of a sampled plane collider.
inline void tangent_frame(Vec3 d, Vec3& n, Vec3& u, Vec3& v) {
  n = (1.0f / length(d)) * d;
  const Vec3 helper = fabsf(n.x) < 0.9f ? Vec3{1, 0, 0} : Vec3{0, 1, 0};
  u = helper - dot(helper, n) * n;
  u = (1.0f / length(u)) * u;
  v = Vec3{n.y * u.z - n.z * u.y, n.z * u.x - n.x * u.z, n.x * u.y - n.y * u.x};
}

constexpr float kPi = 3.14159265358979f;

struct Kernel {
  float h;       // support radius
  float w_norm;  // 8 / (pi h^3)
  float g_norm;  // 48 / (pi h^3)
  float c_norm;  // 32 / (pi h^9), the cohesion spline
  float w_zero;  // W(0)

  static Kernel with_support(float h) {
    Kernel k;
    k.h = h;
    k.w_norm = 8.0f / (kPi * h * h * h);
    k.g_norm = 48.0f / (kPi * h * h * h);
    const float h3 = h * h * h;
    k.c_norm = 32.0f / (kPi * h3 * h3 * h3);
    k.w_zero = k.w_norm;
    return k;
  }
};

MENISCUS_HD inline float kernel_w(const Kernel& k, float r) {
  const float q = r / k.h;
  if (q > 1.0f) return 0.0f;
  if (q <= 0.5f) return k.w_norm * (6.0f * q * q * (q - 1.0f) + 1.0f);
  const float a = 1.0f - q;
  return k.w_norm * 2.0f * a * a * a;
}

// W(|d|) into w, and the gradient with respect to x_i of W(x_i - x_j) for d = x_i - x_j
// returned, from one square root (W's arithmetic is kernel_w's).
MENISCUS_HD inline Vec3 kernel_w_and_grad(const Kernel& k, Vec3 d, float& w) {
  const float r = length(d);
  const float q = r / k.h;
  w = 0.0f;
  if (q > 1.0f) return {0.0f, 0.0f, 0.0f};
  float g;
  if (q <= 0.5f) {
    w = k.w_norm * (6.0f * q * q * (q - 1.0f) + 1.0f);
    g = k.g_norm * q * (3.0f * q - 2.0f);
  } else {
    const float a = 1.0f - q;
    w = k.w_norm * 2.0f * a * a * a;
    g = -k.g_norm * a * a;
  }
  if (r <= 1e-9f) return {0.0f, 0.0f, 0.0f};
  return (g / (r * k.h)) * d;
}

MENISCUS_HD inline float cohesion(const Kernel& k, float r) {
  const float h = k.h;
  if (r > h || r <= 0.0f) return 0.0f;
  const float a = h - r;
  const float term = a * a * a * r * r * r;
  if (2.0f * r > h) return k.c_norm * term;
  const float h3 = h * h * h;
  return k.c_norm * (2.0f * term - h3 * h3 / 64.0f);
}

}  // namespace meniscus::sim::sph
