// A 1D HistoPyramid over cube records (Jalba et al. 2013 §3.4 records, Dyken et al. 2008 §3
// pyramid), shared by the build, extraction and drawing shaders. Mirrors the CPU reference
// sim/histopyramid/record_mesh.cpp:
//  - `record_words`: the records as the CPU packed them, 15 bytes each, read as a byte stream
//    (sim/histopyramid/cube_record.h: uint16 x, y, z; case; 8 quantised corner values);
//  - level 0 holds the vertex count of records 4i..4i+3 in texel i (a uvec4), level l + 1 the
//    sums of four texels of level l, up to a single texel; all levels in one buffer, level 0
//    first; levels past the last record read as 0;
//  - `mc_tables`: per case the triangle count at [c * 37], then 36 edge ids.
// Push constants: 64 bytes, so the draw can add its own 64 within lavapipe's 128-byte limit.

layout(push_constant) uniform RecordPyramidParams {
  uvec4 counts;     // x = record count, y = level count, z = level being built (reduce)
  vec4 placement;   // xyz = position of record position (0, 0, 0); w = voxel size
  vec4 decode;      // x = value of one code step (γ / 128)
  vec4 unused;
#ifdef RECORD_PYRAMID_PUSH_EXTRA
  RECORD_PYRAMID_PUSH_EXTRA  // a stage's own push constants after these 64 bytes
#endif
} rp;

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
  uint b = record * 15u + k;
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
  return (float(code) + 0.5) * rp.decode.x;
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
  position = rp.placement.xyz + rp.placement.w * (vec3(record_position(record) + corner_offset(a)) + step_along);
  vec3 g = trilinear_gradient(f, vec3(corner_offset(a)) + step_along);
  normal = length(g) > 0.0 ? normalize(g) : vec3(0.0, 0.0, 1.0);
}
