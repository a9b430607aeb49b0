#pragma once
// The per-voxel arithmetic of the particle level set (particle_level_set.h), compiled for both
// backends from this one text so that the CPU and CUDA builds round every operation alike
// (the CUDA sources are built without fused multiply-adds): the Zhu–Bridson kernel sum and its
// φ0, the distance seeded at voxels next to φ0's sign change, the Godunov update of the
// eikonal sweeps, and the band value. The order of every sum is part of the contract: the CPU
// hoists (dz² + dy²) out of its x loop, so the squared distance is summed in that order.
#include <cmath>
#include <cstdint>

#include "sim/common/host_device.h"

namespace meniscus::sim::levelset::particle_grid {

inline constexpr uint32_t kNone = UINT32_MAX;

// Everything the kernels need, in voxel units, derived once on the host from the parameters
// (particle_level_set_shape.cpp). A plain struct: it is passed to kernels by value.
struct GridShape {
  float origin[3];      // metres
  float inverse_voxel;  // voxels per metre
  int tiles[3];         // the dense tile grid over the voxel grid (4 voxels a tile)
  float radius;         // r̄: every particle's radius
  float kernel_radius;  // R
  float inverse_kernel_radius_squared;
  float outside;        // φ0 where no particle lies within R: R − r̄, the formula's own limit there
  float gamma;          // the band: |φ| < γ
  float cap;            // γ + 1: the sweeps' ceiling, one voxel past the band
  float evaluate_reach;  // a tile within this of a particle's cell box gets φ0 evaluated (R + 1)
  float member_reach;    // ... within this it may hold band values (R + 1 + cap)
  int cells_below, cells_above;  // cells [t - below, t + above] hold every particle within R of tile t
  int near_reach;                // tiles within this many rings of an interface tile are swept
  int sweeps;                    // Jacobi sweeps: a voxel within cap of the interface is settled
};

MENISCUS_HD inline uint32_t tile_count(const GridShape& g) {
  return uint32_t(g.tiles[0]) * uint32_t(g.tiles[1]) * uint32_t(g.tiles[2]);
}

MENISCUS_HD inline uint32_t dense_index(const GridShape& g, int x, int y, int z) {
  return (uint32_t(z) * uint32_t(g.tiles[1]) + uint32_t(y)) * uint32_t(g.tiles[0]) + uint32_t(x);
}

MENISCUS_HD inline bool inside_tiles(const GridShape& g, int x, int y, int z) {
  return x >= 0 && y >= 0 && z >= 0 && x < g.tiles[0] && y < g.tiles[1] && z < g.tiles[2];
}

// A particle position (metres) in voxel units; false when it lies outside the voxel grid (or
// is not finite), and the particle then takes no part.
MENISCUS_HD inline bool to_voxels(const GridShape& g, const float p[3], float out[3]) {
  bool inside = true;
  for (int a = 0; a < 3; ++a) {
    out[a] = (p[a] - g.origin[a]) * g.inverse_voxel;
    inside = inside && out[a] >= 0.0f && out[a] < float(g.tiles[a] * 4);  // false for NaN
  }
  return inside;
}

// The cell (tile) of a voxel-space coordinate inside the grid.
MENISCUS_HD inline int cell_of(float v) { return int(v) >> 2; }  // v >= 0: truncation is floor

// Floor division by a tile side for possibly negative voxel coordinates.
MENISCUS_HD inline int tile_floor(int v) { return v >= 0 ? v / 4 : -((-v + 3) / 4); }

// The tiles [lo, hi] along one axis holding a voxel within `reach` of [box_min, box_max],
// clamped to the grid (lo > hi: none).
MENISCUS_HD inline void tiles_within(float box_min, float box_max, float reach, int tiles, int& lo, int& hi) {
  lo = tile_floor(int(floorf(box_min - reach)));
  hi = tile_floor(int(ceilf(box_max + reach)));
  lo = lo < 0 ? 0 : lo;
  hi = hi >= tiles ? tiles - 1 : hi;
}

// Σ w, Σ w (x_i − x) of the kernel k(s) = max(0, (1 − s²)³), s = |x_i − x| / R.
struct KernelSum {
  float w = 0.0f, x = 0.0f, y = 0.0f, z = 0.0f;
};

// Adds particle i at offset (dx, dy, dz) = x_i − x whose (dz² + dy²) is `dzy2`.
MENISCUS_HD inline void accumulate(KernelSum& sum, float dx, float dy, float dz, float dzy2, float inverse_r2) {
  const float s2 = (dzy2 + dx * dx) * inverse_r2;
  if (!(s2 < 1.0f)) return;
  float w = 1.0f - s2;
  w = w * w * w;
  sum.w += w;
  sum.x += w * dx;
  sum.y += w * dy;
  sum.z += w * dz;
}

// Zhu & Bridson's φ0(x) = |x − x̄| − r̄ with x̄ − x = Σ w (x_i − x) / Σ w.
MENISCUS_HD inline float zhu_bridson_phi(const KernelSum& sum, const GridShape& g) {
  if (!(sum.w > 0.0f)) return g.outside;
  const float mx = sum.x / sum.w, my = sum.y / sum.w, mz = sum.z / sum.w;
  return sqrtf(mz * mz + my * my + mx * mx) - g.radius;
}

inline constexpr float kInsideFloor = 1e-6f;  // an inside value never rounds to −0 (read as outside)

// A voxel next to φ0's sign change (n: its six neighbours' φ0, −x +x −y +y −z +z): the distance
// to the plane through the crossing points on its edges, at fractions θ_a of the edge found by
// linear interpolation, 1 / sqrt(Σ 1/θ_a²). Returns cap where no edge crosses.
MENISCUS_HD inline float seed_distance(float phi, const float n[6], float cap) {
  const bool inside = phi < 0.0f;
  float inverse = 0.0f;
  bool crossed = false;
  for (int a = 0; a < 3; ++a) {
    float theta = 2.0f;
    for (int s = 0; s < 2; ++s) {
      const float q = n[2 * a + s];
      if ((q < 0.0f) == inside) continue;
      const float t = phi / (phi - q);
      theta = t < theta ? t : theta;
    }
    if (theta > 1.0f) continue;
    if (theta == 0.0f) return 0.0f;
    crossed = true;
    inverse += 1.0f / (theta * theta);
  }
  return crossed ? 1.0f / sqrtf(inverse) : cap;
}

// φ0's sign and the seed in one float: −|d| inside (never −0), |d| outside; |seed| < cap marks
// a voxel the sweeps keep fixed.
MENISCUS_HD inline float signed_seed(float phi, float distance) {
  if (!(phi < 0.0f)) return distance;
  return -(distance > kInsideFloor ? distance : kInsideFloor);
}

// The Godunov upwind solution u of |∇u| = 1 on the unit grid from the smallest neighbour along
// each axis (Zhao's fast sweeping update, here iterated Jacobi-fashion so both backends agree).
MENISCUS_HD inline float eikonal_update(float a, float b, float c) {
  float t;
  if (a > b) t = a, a = b, b = t;
  if (b > c) t = b, b = c, c = t;
  if (a > b) t = a, a = b, b = t;
  float u = a + 1.0f;
  if (u <= b) return u;
  const float ab = a - b;
  u = 0.5f * (a + b + sqrtf(2.0f - ab * ab));
  if (u <= c) return u;
  const float s = a + b + c;
  const float q = s * s - 3.0f * (a * a + b * b + c * c - 1.0f);
  return (s + sqrtf(q > 0.0f ? q : 0.0f)) / 3.0f;
}

// One sweep at a voxel: its fixed seed, or the smaller of its value and the update from its
// neighbours' magnitudes (n as in seed_distance).
MENISCUS_HD inline float sweep_value(float seed, float current, const float n[6], float cap) {
  const float fixed = fabsf(seed);
  if (fixed < cap) return fixed;
  const float a = n[0] < n[1] ? n[0] : n[1], b = n[2] < n[3] ? n[2] : n[3], c = n[4] < n[5] ? n[4] : n[5];
  const float u = eikonal_update(a, b, c);
  return u < current ? u : current;
}

// The band value: the swept distance with φ0's sign, clamped to ±γ.
MENISCUS_HD inline float band_value(float seed, float distance, float gamma) {
  const float d = distance < gamma ? distance : gamma;
  return seed < 0.0f ? -(d > kInsideFloor ? d : kInsideFloor) : d;
}

}  // namespace meniscus::sim::levelset::particle_grid
