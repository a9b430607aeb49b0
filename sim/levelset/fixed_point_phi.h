#pragma once
// 16-bit fixed-point storage of φ (Jalba et al. 2013 §6.4). Inside the narrow band |φ| ≤ γ,
// so φ fits a signed 16-bit multiple of γ / 32767: 4.6e-5 voxels for γ = 1.5, far below what
// WENO5 or the curvature term resolve. Work is done in float; only storage is rounded (to
// nearest), which halves the tile pool. ±γ map to ±32767 and back exactly, so the band test
// |φ| < γ and the signs the flags read are the same as with float storage, and rounding a
// decoded value again gives the same code (a tile that is written back unchanged stays put).
// One text for both backends, so the CPU and CUDA lists round alike.
#include <cmath>
#include <cstdint>

#include "sim/common/host_device.h"

namespace meniscus::sim::levelset {

inline constexpr int kFixedPhiMax = 32767;

MENISCUS_HD inline int16_t encode_fixed_phi(float phi, float gamma) {
  const float scaled = phi * (float(kFixedPhiMax) / gamma);
  // fmaxf/fminf, not a comparison chain: a NaN φ stores as −γ instead of an undefined cast.
  return int16_t(rintf(fminf(fmaxf(scaled, -float(kFixedPhiMax)), float(kFixedPhiMax))));
}

MENISCUS_HD inline float decode_fixed_phi(int16_t code, float gamma) {
  if (code >= kFixedPhiMax) return gamma;
  if (code <= -kFixedPhiMax) return -gamma;
  return float(code) * (gamma / float(kFixedPhiMax));
}

}  // namespace meniscus::sim::levelset
