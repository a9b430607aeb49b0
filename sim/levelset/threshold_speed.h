#pragma once
// The speed of Lefohn & Whitaker's segmentation (seed 004, §2–3): F = c0·G(I) + (1 − c0)·κ,
// where the data term G pulls the front over voxels whose intensity lies between two
// thresholds and pushes it back elsewhere:
//   G(I) = I − I_lo  below the midpoint,  I_hi − I  above it.
// Eq. 6 prints the midpoint as (I_hi − I_lo)/2; that is a misprint (with the paper's own
// thresholds 0.3 and 0.55 it lies below I_lo, making G negative over the whole window). The
// midpoint here is (I_lo + I_hi)/2, as in ITK's ThresholdSegmentationLevelSetFunction, whose
// raw intensity units we also keep: with PropagationScaling = c0 and CurvatureScaling = 1 − c0
// ITK evolves the same equation. The curvature part is the evolution's α term; this file is
// the data part, as data so both backends evaluate it with the same arithmetic.
//
// The volume is sampled with trilinear interpolation at the level set's voxels, whose grid may
// be finer or coarser than the volume's: volume index = voxel * scale + offset.
#include <cmath>
#include <cstddef>

#include <glm/glm.hpp>

#include "sim/common/host_device.h"
#include "sim/levelset/closest_point.h"

namespace meniscus::sim::levelset {

enum class DataTerm {
  kLinear,  // G as above: the paper's and ITK's
  kTanh,    // ITK-SNAP's smooth variant: G saturates at ±½(I_hi − I_lo) far from the window
};

struct ThresholdSpeed {
  const float* volume = nullptr;  // x fastest; host memory for the CPU, device memory for CUDA
  glm::ivec3 dims{0};
  glm::vec3 scale{1.0f}, offset{0.0f};  // level-set voxel -> continuous volume index
  float lower = 0.0f, upper = 0.0f;     // I_lo < I_hi
  float propagation = 1.0f;             // c0, the weight of G (1 − the curvature weight)
  DataTerm term = DataTerm::kLinear;
};

// G(I) and |dG/dI|.
struct DataTermValue {
  float g, slope;
};

MENISCUS_HD inline DataTermValue data_term(float intensity, float lower, float upper, DataTerm term) {
  const float mid = 0.5f * (lower + upper);
  const float g = intensity < mid ? intensity - lower : upper - intensity;
  if (term == DataTerm::kLinear) return {g, 1.0f};
  // Same sign and the same slope at the thresholds, bounded by the window's half-width so a
  // bright outlier far outside does not set the CFL step for the whole band.
  const float half = 0.5f * (upper - lower);
  const float t = tanhf(g / half);
  return {half * t, 1.0f - t * t};
}

MENISCUS_HD inline float threshold_data_term(float intensity, float lower, float upper, DataTerm term) {
  return data_term(intensity, lower, upper, term).g;
}

// Trilinear interpolation; positions a little beyond the volume read its nearest edge sample.
// The corners are reached from one base pointer by per-axis strides (0 on a clamped edge), so
// the eight reads cost no index arithmetic of their own: this runs for every band voxel.
struct TrilinearCell {
  const float* c;            // the corner at the cell's lower indices
  ptrdiff_t dx, dy, dz;      // strides to the upper corners
  float fx, fy, fz;
};

MENISCUS_HD inline TrilinearCell trilinear_cell(const float* volume, glm::ivec3 dims, glm::vec3 p) {
  const auto axis = [](float v, int n, ptrdiff_t stride, int& i0, ptrdiff_t& step, float& f) {
    // Compares, not fminf/fmaxf: those are library calls on the host (NaN rules), and a NaN
    // position reads the first sample either way.
    v = v > 0.0f ? v : 0.0f;
    v = v < float(n - 1) ? v : float(n - 1);
    i0 = int(v);
    step = i0 + 1 < n ? stride : 0;
    f = v - float(i0);
  };
  const ptrdiff_t sy = dims.x, sz = ptrdiff_t(dims.x) * dims.y;
  int x0, y0, z0;
  TrilinearCell t;
  axis(p.x, dims.x, 1, x0, t.dx, t.fx);
  axis(p.y, dims.y, sy, y0, t.dy, t.fy);
  axis(p.z, dims.z, sz, z0, t.dz, t.fz);
  t.c = volume + size_t(z0) * size_t(sz) + size_t(y0) * size_t(sy) + size_t(x0);
  return t;
}

MENISCUS_HD inline float trilinear_value(const TrilinearCell& t) {
  const float* c = t.c;
  const float c00 = c[0] + t.fx * (c[t.dx] - c[0]);
  const float c10 = c[t.dy] + t.fx * (c[t.dy + t.dx] - c[t.dy]);
  const float c01 = c[t.dz] + t.fx * (c[t.dz + t.dx] - c[t.dz]);
  const float c11 = c[t.dz + t.dy] + t.fx * (c[t.dz + t.dy + t.dx] - c[t.dz + t.dy]);
  const float c0 = c00 + t.fy * (c10 - c00), c1 = c01 + t.fy * (c11 - c01);
  return c0 + t.fz * (c1 - c0);
}

// The interpolant's gradient in index units (0 along an axis clamped at the edge).
MENISCUS_HD inline glm::vec3 trilinear_gradient(const TrilinearCell& t) {
  const auto lerp = [](float a, float b, float f) { return a + f * (b - a); };
  // The differences along one axis at the four corners of the other two, bilinear between them.
  const auto along = [&](ptrdiff_t d, ptrdiff_t u, ptrdiff_t v, float fu, float fv) {
    const float* c = t.c;
    return lerp(lerp(c[d] - c[0], c[u + d] - c[u], fu), lerp(c[v + d] - c[v], c[v + u + d] - c[v + u], fu), fv);
  };
  return {along(t.dx, t.dy, t.dz, t.fy, t.fz), along(t.dy, t.dx, t.dz, t.fx, t.fz), along(t.dz, t.dx, t.dy, t.fx, t.fy)};
}

MENISCUS_HD inline float sample_trilinear(const float* volume, glm::ivec3 dims, glm::vec3 p) {
  return trilinear_value(trilinear_cell(volume, dims, p));
}

// c0·G(I) at a level-set voxel: the normal speed F of the evolution, in intensity units, and
// how fast it changes along the front's normal n, |∂F/∂n| = c0 |dG/dI| |∇I·n|.
//
// That second number bounds the step where the front comes to rest on an edge: near its rest
// point x*, F ≈ −k (x − x*), and an explicit step reaches x* without overshooting only while
// k dt ≤ 1. A window narrow against the edge's contrast makes k larger than the CFL speed, and
// a CFL step alone leaves the front rocking across the edge (and its RMS change never falls).
//
// More than half a sample beyond the volume nothing is known and nothing moves the front (F
// = 0): a structure the scan cuts off comes to rest just past its last sample, closed there,
// as the image's region bounds ITK's. (Pushing it back instead would pit the bone's full
// speed against the push across one voxel, and the front would never come to rest.)
struct ThresholdSample {
  float speed = 0.0f;
  float stiffness = 0.0f;  // |∂F/∂n|, per level-set voxel
};

MENISCUS_HD inline ThresholdSample threshold_speed_along(const ThresholdSpeed& s, glm::vec3 voxel, glm::vec3 normal) {
  const glm::vec3 p = voxel * s.scale + s.offset;
  const bool beyond = p.x < -0.5f || p.y < -0.5f || p.z < -0.5f || p.x > float(s.dims.x) - 0.5f ||
                      p.y > float(s.dims.y) - 0.5f || p.z > float(s.dims.z) - 0.5f;
  if (beyond) return {};
  const TrilinearCell cell = trilinear_cell(s.volume, s.dims, p);
  const glm::vec3 g = trilinear_gradient(cell);
  const float along = fabsf(g.x * s.scale.x * normal.x + g.y * s.scale.y * normal.y + g.z * s.scale.z * normal.z);
  const DataTermValue d = data_term(trilinear_value(cell), s.lower, s.upper, s.term);
  return {s.propagation * d.g, s.propagation * d.slope * along};
}

// Where a band voxel reads its normal speed (its nearest front point when the speed is extended
// along the normals, closest_point.h) and, for a segmentation, the data term there. Both
// backends' rate kernels start from this.
struct SpeedPoint {
  glm::vec3 at;
  ThresholdSample threshold;  // zero without a threshold volume
};

MENISCUS_HD inline SpeedPoint speed_point(const ThresholdSpeed& threshold, bool extend, glm::vec3 voxel, const float* centre,
                                          int sy, int sz) {
  const FrontPoint front = nearest_front_point(centre, sy, sz);
  SpeedPoint p{extend ? voxel + front.offset : voxel, {}};
  if (threshold.volume) p.threshold = threshold_speed_along(threshold, p.at, front.normal);
  return p;
}

}  // namespace meniscus::sim::levelset
