#version 460
// HistoPyramid level l (>= 1): each texel holds the sums of the four texels beneath it.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, std430) readonly buffer Volume { float volume_values[]; };
layout(set = 0, binding = 1, std430) buffer Pyramid { uvec4 pyramid_texels[]; };
layout(set = 0, binding = 2, std430) readonly buffer Tables { uint mc_tables[]; };
#include "include/histopyramid.glsl"

uint sum_below(uvec2 p, uint below, uint below_side) {
  uvec4 t = pyramid_texels[level_offset(below) + p.y * below_side + p.x];
  return t.x + t.y + t.z + t.w;
}

void main() {
  uint level = hp.side_levels.z;
  uint level_side = hp.side_levels.x >> (level + 1u);
  uint below_side = level_side * 2u;
  uvec2 p = gl_GlobalInvocationID.xy;
  if (p.x >= level_side || p.y >= level_side) return;
  uvec2 b = 2u * p;
  pyramid_texels[level_offset(level) + p.y * level_side + p.x] =
      uvec4(sum_below(b, level - 1u, below_side), sum_below(b + uvec2(1, 0), level - 1u, below_side),
            sum_below(b + uvec2(0, 1), level - 1u, below_side), sum_below(b + uvec2(1, 1), level - 1u, below_side));
}
