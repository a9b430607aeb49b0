// HistoPyramid marching cubes on the GPU (Dyken et al. §3-4), shared by the build, extraction
// and drawing shaders. Mirrors sim/histopyramid (the CPU reference) exactly:
//  - cells live in a flat 3D layout: z-slices tiled over a square base of side `side`;
//  - level 0 packs each 2x2 block of base counts into one uvec4; level l+1 sums level l;
//  - all levels sit in one buffer, level l at texel offset level_offset[l].
// Requires: buffers `volume` (float samples, x fastest), `pyramid` (uvec4 texels), `tables`
// (per case: triangle count at [c * 37], then 36 edge ids), and the push constants below
// (64 bytes, so a pass can add its own 16 after them within lavapipe's 128-byte limit).

layout(push_constant) uniform HistoPyramidParams {
  uvec4 dims_tiles;     // xyz = sample dims, w = tiles per row
  uvec4 side_levels;    // x = base side, y = level count, z = level being built (reduce), w = unused
  vec4 iso_spacing;     // x = iso, yzw = sample spacing
  vec4 origin;          // xyz = position of sample (0,0,0); w = unused
#ifdef HISTOPYRAMID_PUSH_EXTRA
  HISTOPYRAMID_PUSH_EXTRA  // a stage's own push constants after these 64 bytes (one block per stage)
#endif
} hp;

// Level l starts after all the (smaller and smaller) levels below it.
uint level_offset(uint level) {
  uint offset = 0u;
  for (uint l = 0u; l < level; ++l) {
    uint s = hp.side_levels.x >> (l + 1u);
    offset += s * s;
  }
  return offset;
}
uvec3 cell_dims() { return hp.dims_tiles.xyz - uvec3(1); }

float sample_at(uvec3 p) {
  uvec3 d = hp.dims_tiles.xyz;
  return volume_values[(p.z * d.y + p.y) * d.x + p.x];
}

// Base element (u, v) -> cell; false for padding.
bool cell_of(uvec2 uv, out uvec3 cell) {
  uvec3 c = cell_dims();
  uint tx = uv.x / c.x, ty = uv.y / c.y;
  uint z = ty * hp.dims_tiles.w + tx;
  cell = uvec3(uv.x % c.x, uv.y % c.y, z);
  return tx < hp.dims_tiles.w && z < c.z;
}

uvec3 corner_offset(uint c) { return uvec3(c & 1u, (c >> 1) & 1u, (c >> 2) & 1u); }

// Bit c set when corner c is inside; the tie rule: f >= iso is inside.
uint cell_case(uvec3 cell) {
  uint index = 0u;
  for (uint c = 0u; c < 8u; ++c)
    if (sample_at(cell + corner_offset(c)) >= hp.iso_spacing.x) index |= 1u << c;
  return index;
}

uint case_vertices(uint mc_case) { return 3u * mc_tables[mc_case * 37u]; }
uint case_edge(uint mc_case, uint k) { return mc_tables[mc_case * 37u + 1u + k]; }

// Cube edges in the CPU table's order: x edges, then y, then z, by lower corner.
const uint kEdgeA[12] = uint[](0u, 2u, 4u, 6u, 0u, 1u, 4u, 5u, 0u, 1u, 2u, 3u);
const uint kEdgeAxis[12] = uint[](0u, 0u, 0u, 0u, 1u, 1u, 1u, 1u, 2u, 2u, 2u, 2u);

vec3 gradient_at(uvec3 p) {
  vec3 g;
  for (int axis = 0; axis < 3; ++axis) {
    uvec3 lo = p, hi = p;
    if (p[axis] > 0u) lo[axis] -= 1u;
    if (p[axis] + 1u < hp.dims_tiles[axis]) hi[axis] += 1u;
    g[axis] = (sample_at(hi) - sample_at(lo)) / float(hi[axis] - lo[axis]) / hp.iso_spacing[axis + 1];
  }
  return g;
}

// Top-down traversal of key index k: the base element and the local key index.
void traverse(uint key, out uvec2 element, out uint local_key) {
  uvec2 p = uvec2(0u);
  uint levels = hp.side_levels.y;
  uint offsets[16];
  uint offset = 0u;
  for (uint l = 0u; l < levels; ++l) {
    offsets[l] = offset;
    uint s = hp.side_levels.x >> (l + 1u);
    offset += s * s;
  }
  for (uint l = levels; l-- > 0u;) {
    uint level_side = hp.side_levels.x >> (l + 1u);
    uvec4 t = pyramid_texels[offsets[l] + p.y * level_side + p.x];
    uint child = 0u;
    if (key >= t.x) { key -= t.x; child = 1u;
      if (key >= t.y) { key -= t.y; child = 2u;
        if (key >= t.z) { key -= t.z; child = 3u; } } }
    p = 2u * p + uvec2(child & 1u, child >> 1);
  }
  element = p;
  local_key = key;
}

// The surface vertex for output key `key`: position, outward normal, and the id of the cube
// edge it lies on (3 * index of the edge's lower sample + axis, as the CPU reference numbers
// them), which lets a read-back soup become an indexed mesh.
void emit_vertex(uint key, out vec3 position, out vec3 normal, out uint edge_id) {
  uvec2 element;
  uint local_key;
  traverse(key, element, local_key);
  uvec3 cell;
  cell_of(element, cell);
  uint mc_case = cell_case(cell);
  uint edge = case_edge(mc_case, local_key);
  uvec3 a = cell + corner_offset(kEdgeA[edge]);
  uvec3 b = a;
  b[kEdgeAxis[edge]] += 1u;
  edge_id = ((a.z * hp.dims_tiles.y + a.y) * hp.dims_tiles.x + a.x) * 3u + kEdgeAxis[edge];
  float fa = sample_at(a), fb = sample_at(b);
  float t = (hp.iso_spacing.x - fa) / (fb - fa);
  position = hp.origin.xyz + hp.iso_spacing.yzw * mix(vec3(a), vec3(b), t);
  vec3 g = mix(gradient_at(a), gradient_at(b), t);
  normal = length(g) > 0.0 ? -normalize(g) : vec3(0.0, 0.0, 1.0);
}
