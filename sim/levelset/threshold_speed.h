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

#include <glm/glm.hpp>

#include "sim/common/host_device.h"

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

MENISCUS_HD inline float threshold_data_term(float intensity, float lower, float upper, DataTerm term) {
  const float mid = 0.5f * (lower + upper);
  const float g = intensity < mid ? intensity - lower : upper - intensity;
  if (term == DataTerm::kLinear) return g;
  // Same sign and the same slope at the thresholds, bounded by the window's half-width so a
  // bright outlier far outside does not set the CFL step for the whole band.
  const float half = 0.5f * (upper - lower);
  return half * tanhf(g / half);
}

// Trilinear interpolation; positions a little beyond the volume read its nearest edge sample.
MENISCUS_HD inline float sample_trilinear(const float* volume, glm::ivec3 dims, glm::vec3 p) {
  const auto axis = [](float v, int n, int& i0, int& i1, float& f) {
    v = fminf(fmaxf(v, 0.0f), float(n - 1));
    i0 = int(v);
    i1 = i0 + 1 < n ? i0 + 1 : i0;
    f = v - float(i0);
  };
  int x0, x1, y0, y1, z0, z1;
  float fx, fy, fz;
  axis(p.x, dims.x, x0, x1, fx);
  axis(p.y, dims.y, y0, y1, fy);
  axis(p.z, dims.z, z0, z1, fz);
  const auto at = [&](int x, int y, int z) { return volume[(size_t(z) * dims.y + y) * dims.x + x]; };
  const float c00 = at(x0, y0, z0) + fx * (at(x1, y0, z0) - at(x0, y0, z0));
  const float c10 = at(x0, y1, z0) + fx * (at(x1, y1, z0) - at(x0, y1, z0));
  const float c01 = at(x0, y0, z1) + fx * (at(x1, y0, z1) - at(x0, y0, z1));
  const float c11 = at(x0, y1, z1) + fx * (at(x1, y1, z1) - at(x0, y1, z1));
  const float c0 = c00 + fy * (c10 - c00), c1 = c01 + fy * (c11 - c01);
  return c0 + fz * (c1 - c0);
}

// c0·G(I) at a level-set voxel: the normal speed F of the evolution, in intensity units.
// More than half a sample beyond the volume nothing is known and nothing moves the front (F
// = 0): a structure the scan cuts off comes to rest just past its last sample, closed there,
// as the image's region bounds ITK's. (Pushing it back instead would pit the bone's full
// speed against the push across one voxel, and the front would never come to rest.)
MENISCUS_HD inline float threshold_speed_at(const ThresholdSpeed& s, glm::vec3 voxel) {
  const glm::vec3 p = voxel * s.scale + s.offset;
  const bool beyond = p.x < -0.5f || p.y < -0.5f || p.z < -0.5f || p.x > float(s.dims.x) - 0.5f ||
                      p.y > float(s.dims.y) - 0.5f || p.z > float(s.dims.z) - 0.5f;
  if (beyond) return 0.0f;
  return s.propagation * threshold_data_term(sample_trilinear(s.volume, s.dims, p), s.lower, s.upper, s.term);
}

}  // namespace meniscus::sim::levelset
