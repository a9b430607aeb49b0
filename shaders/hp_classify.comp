#version 460
// HistoPyramid level 0: each invocation classifies the 2x2 block of base elements (cells in
// the flat 3D layout) under one texel and stores their vertex counts as a uvec4.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, std430) readonly buffer Volume { float volume_values[]; };
layout(set = 0, binding = 1, std430) buffer Pyramid { uvec4 pyramid_texels[]; };
layout(set = 0, binding = 2, std430) readonly buffer Tables { uint mc_tables[]; };
#include "include/histopyramid.glsl"

uint count_at(uvec2 uv) {
  uvec3 cell;
  if (!cell_of(uv, cell)) return 0u;
  return case_vertices(cell_case(cell));
}

void main() {
  uint level_side = hp.side_levels.x >> 1;
  uvec2 texel = gl_GlobalInvocationID.xy;
  if (texel.x >= level_side || texel.y >= level_side) return;
  uvec2 base = 2u * texel;
  pyramid_texels[texel.y * level_side + texel.x] =
      uvec4(count_at(base), count_at(base + uvec2(1, 0)), count_at(base + uvec2(0, 1)), count_at(base + uvec2(1, 1)));
}
