#pragma once
// The paper's compact cube record (Jalba et al. 2013, §3.4): one 15-byte record per cell that
// the surface crosses, enough to triangulate the cell without the volume it came from. A
// sparse level set is drawn from a list of these rather than from a dense re-sample.
//
// Layout, byte by byte (no padding: a record list is uploaded as it lies in memory and the
// shaders read it as a byte stream, 15 bytes per record):
//   0-5   base voxel x, y, z of the cell relative to the record set's origin, little-endian
//         uint16 each (so a record set spans at most 65536 voxels per axis)
//   6     marching-cubes case: bit c set when corner c is inside (mc_tables.h numbering)
//   7-14  the value at corner c minus the iso value, quantised to 8 bits (quantise_corner)
//
// Quantisation: the band [-γ, γ] is cut into 256 equal bins, and code q stands for the bin
// (q, q + 1] of value * 128 / γ; it decodes to the bin's centre, never to zero. A code is a
// function of the corner's value only, so the cells that share a corner decode it identically
// and the cells that share an edge put its vertex at the same point: the surface stays
// crack-free. Tie rule, as in the rest of sim/histopyramid: a value equal to the iso value is
// inside, and a code is negative exactly when its value is inside (value <= 0 with values
// negative inside, as φ is).
#include <cmath>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "sim/common/host_device.h"

namespace meniscus::sim {

struct CubeRecord {
  uint8_t position[6];  // x, y, z: little-endian uint16
  uint8_t mc_case;
  int8_t corners[8];
};
static_assert(sizeof(CubeRecord) == 15 && alignof(CubeRecord) == 1, "the paper's 15-byte record, unpadded");

inline constexpr uint32_t kMaxRecordCoordinate = 65535;

// `value` is the corner's value minus the iso value (negative inside); `gamma` > 0 the band's
// half-width, beyond which values saturate.
MENISCUS_HD inline int8_t quantise_corner(float value, float gamma) {
  // Clamped first so that the conversion to int is defined for any float (NaN reads as inside).
  const float scaled = fminf(fmaxf(value * (128.0f / gamma), -129.0f), 128.0f);
  const int bin = int(ceilf(scaled)) - 1;  // value * 128 / γ lies in (bin, bin + 1]
  if (value > 0.0f) return int8_t(bin < 0 ? 0 : bin > 127 ? 127 : bin);
  return int8_t(bin > -1 ? -1 : bin < -128 ? -128 : bin);
}

MENISCUS_HD inline float decode_corner(int8_t code, float gamma) { return (float(code) + 0.5f) * (gamma / 128.0f); }

MENISCUS_HD inline bool corner_inside(int8_t code) { return code < 0; }

// A record for the cell whose base voxel sits at `position` (each coordinate at most
// kMaxRecordCoordinate: the caller checks) with the given corner codes; the case follows them.
inline CubeRecord make_cube_record(glm::uvec3 position, const int8_t codes[8]) {
  CubeRecord r;
  for (int axis = 0; axis < 3; ++axis) {
    r.position[2 * axis] = uint8_t(position[axis] & 0xFF);
    r.position[2 * axis + 1] = uint8_t(position[axis] >> 8);
  }
  r.mc_case = 0;
  for (int c = 0; c < 8; ++c) {
    r.corners[c] = codes[c];
    if (corner_inside(codes[c])) r.mc_case |= uint8_t(1 << c);
  }
  return r;
}

inline glm::uvec3 record_position(const CubeRecord& r) {
  return {uint32_t(r.position[0]) | uint32_t(r.position[1]) << 8, uint32_t(r.position[2]) | uint32_t(r.position[3]) << 8,
          uint32_t(r.position[4]) | uint32_t(r.position[5]) << 8};
}

// One frame's records of a level set and how to place them: record position p is the voxel
// `origin + p` of the level set's own voxel grid.
struct CubeRecordSet {
  std::vector<CubeRecord> records;
  glm::ivec3 origin{0};
  float gamma = 1.5f;  // decoding scale (the band's half-width)
  float iso = 0.0f;    // the corners hold value - iso
};

}  // namespace meniscus::sim
