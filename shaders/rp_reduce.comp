#version 460
// Record HistoPyramid level l >= 1: texel i holds the sums of texels 4i..4i+3 of level l - 1.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer Records { uint record_words[]; };
layout(set = 0, binding = 1, std430) buffer Pyramid { uvec4 pyramid_texels[]; };
layout(set = 0, binding = 2, std430) readonly buffer Tables { uint mc_tables[]; };
#include "include/record_pyramid.glsl"

void main() {
  uint level = rp.counts.z;
  uint texel = gl_GlobalInvocationID.x;
  if (texel >= texels_at(level)) return;
  uint below = level_offset(level - 1u), below_texels = texels_at(level - 1u);
  uvec4 sums = uvec4(0u);
  for (uint k = 0u; k < 4u; ++k) {
    uint child = 4u * texel + k;
    if (child < below_texels) {
      uvec4 t = pyramid_texels[below + child];
      sums[k] = t.x + t.y + t.z + t.w;
    }
  }
  pyramid_texels[level_offset(level) + texel] = sums;
}
