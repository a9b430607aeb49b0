// A 1D HistoPyramid over cube records (Jalba et al. 2013 §3.4 records, Dyken et al. 2008 §3
// pyramid), shared by the build, extraction and drawing shaders. Mirrors the CPU reference
// sim/histopyramid/record_mesh.cpp:
//  - `record_words`: a record buffer as sim/histopyramid/cube_record_buffer.h lays it out, the
//    32-byte CubeRecordHeader then 15-byte records (cube_record.h: uint16 x, y, z; case; 8
//    quantised corner values) read as a byte stream. The record count, the origin voxel and γ
//    come from the header, not the push constants: on the CUDA backend the host never learns
//    them in time, so whoever wrote the records says how many there are;
//  - level 0 holds the vertex count of records 4i..4i+3 in texel i (a uvec4), level l + 1 the
//    sums of four texels of level l, up to a single texel; all levels in one buffer, level 0
//    first. The levels are sized for the buffer's capacity, and records past the header's count
//    read as 0, so the draw's vertex count never leaves the GPU;
//  - `mc_tables`: per case the triangle count at [c * 37], then 36 edge ids.
// Push constants: 64 bytes, so the draw can add its own 64 within lavapipe's 128-byte limit.

layout(push_constant) uniform RecordPyramidParams {
  uvec4 counts;     // x = records the levels are sized for (>= 1), y = level count,
                    // z = level being built (reduce), w = the buffer's capacity in records
  vec4 placement;   // xyz = position of voxel (0, 0, 0); w = voxel size
  vec4 unused[2];
#ifdef RECORD_PYRAMID_PUSH_EXTRA
  RECORD_PYRAMID_PUSH_EXTRA  // a stage's own push constants after these 64 bytes
#endif
} rp;

// CubeRecordHeader, word by word: count, needed, origin[3], gamma, iso, reserved.
const uint kRecordsOffset = 32u;
// A writer never sets count above its capacity, but the shaders must not read past the buffer
// whatever the header says.
uint record_count() { return min(record_words[0], rp.counts.w); }
ivec3 record_origin_voxel() { return ivec3(record_words[2], record_words[3], record_words[4]); }
// 1 / 128 is a power of two: the product is exact, as the CPU's γ / 128 is (a division may not be).
float code_step() { return uintBitsToFloat(record_words[5]) * 0.0078125; }

uint texels_at(uint level) {
  uint t = (rp.counts.x + 3u) / 4u;
  for (uint l = 0u; l < level; ++l) t = (t + 3u) / 4u;
  return t;
}
uint level_offset(uint level) {
  uint offset = 0u, t = (rp.counts.x + 3u) / 4u;
  for (uint l = 0u; l < level; ++l) {
    offset += t;
    t = (t + 3u) / 4u;
  }
  return offset;
}

uint record_byte(uint record, uint k) {
  uint b = kRecordsOffset + record * 15u + k;
  return (record_words[b >> 2] >> ((b & 3u) * 8u)) & 0xFFu;
}
uint record_case(uint record) { return record_byte(record, 6u); }
uvec3 record_position(uint record) {
  return uvec3(record_byte(record, 0u) | record_byte(record, 1u) << 8, record_byte(record, 2u) | record_byte(record, 3u) << 8,
               record_byte(record, 4u) | record_byte(record, 5u) << 8);
}
// Code q stands for the bin (q, q + 1] of value / step; decoded to its centre, never 0.
float record_value(uint record, uint corner) {
  int code = int(record_byte(record, 7u + corner) << 24) >> 24;
  return (float(code) + 0.5) * code_step();
}

uint case_vertices(uint mc_case) { return 3u * mc_tables[mc_case * 37u]; }
uint case_edge(uint mc_case, uint k) { return mc_tables[mc_case * 37u + 1u + k]; }

// Cube edges in the CPU table's order (sim/histopyramid/mc_tables.cpp): x edges, then y, then
// z, by lower corner; the upper corner is the lower one with the axis bit set.
const uint kEdgeA[12] = uint[](0u, 2u, 4u, 6u, 0u, 1u, 4u, 5u, 0u, 1u, 2u, 3u);
const uint kEdgeAxis[12] = uint[](0u, 0u, 0u, 0u, 1u, 1u, 1u, 1u, 2u, 2u, 2u, 2u);
uvec3 corner_offset(uint c) { return uvec3(c & 1u, (c >> 1) & 1u, (c >> 2) & 1u); }

// Top-down traversal of output key `key`: the record and the key's rank within it.
void traverse(uint key, out uint record, out uint local_key) {
  uint index = 0u;
  for (uint l = rp.counts.y; l-- > 0u;) {
    uvec4 t = pyramid_texels[level_offset(l) + index];
    uint child = 0u;
    if (key >= t.x) { key -= t.x; child = 1u;
      if (key >= t.y) { key -= t.y; child = 2u;
        if (key >= t.z) { key -= t.z; child = 3u; } } }
    index = 4u * index + child;
  }
  record = index;
  local_key = key;
}

// Gradient of the trilinear interpolant of the corner values at p in [0, 1]^3.
vec3 trilinear_gradient(float f[8], vec3 p) {
  vec3 q = 1.0 - p;
  return vec3(q.y * q.z * (f[1] - f[0]) + p.y * q.z * (f[3] - f[2]) + q.y * p.z * (f[5] - f[4]) + p.y * p.z * (f[7] - f[6]),
              q.x * q.z * (f[2] - f[0]) + p.x * q.z * (f[3] - f[1]) + q.x * p.z * (f[6] - f[4]) + p.x * p.z * (f[7] - f[5]),
              q.x * q.y * (f[4] - f[0]) + p.x * q.y * (f[5] - f[1]) + q.x * p.y * (f[6] - f[2]) + p.x * p.y * (f[7] - f[3]));
}

// The surface vertex for output key `key`: its position (from the edge's lower end, an integer,
// so that every cell sharing the edge computes the same point) and the outward normal (values
// grow outwards). `record` and `local_key` say where it came from.
void emit_vertex(uint key, out vec3 position, out vec3 normal, out uint record, out uint local_key) {
  traverse(key, record, local_key);
  uint mc_case = record_case(record);
  uint edge = case_edge(mc_case, local_key);
  uint a = kEdgeA[edge], axis = kEdgeAxis[edge];
  float f[8];
  for (uint c = 0u; c < 8u; ++c) f[c] = record_value(record, c);
  float t = f[a] / (f[a] - f[a | (1u << axis)]);
  vec3 step_along = vec3(0.0);
  step_along[axis] = t;
  // Record position (0, 0, 0) first, as the CPU reference is handed it.
  vec3 record_origin = rp.placement.xyz + vec3(record_origin_voxel()) * rp.placement.w;
  position = record_origin + rp.placement.w * (vec3(record_position(record) + corner_offset(a)) + step_along);
  vec3 g = trilinear_gradient(f, vec3(corner_offset(a)) + step_along);
  normal = length(g) > 0.0 ? normalize(g) : vec3(0.0, 0.0, 1.0);
}
