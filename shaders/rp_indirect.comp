#version 460
// The record pyramid's top texel becomes the indirect draw's vertex count: the count of the
// surface never visits the CPU.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0, std430) readonly buffer Records { uint record_words[]; };
layout(set = 0, binding = 1, std430) readonly buffer Pyramid { uvec4 pyramid_texels[]; };
layout(set = 0, binding = 2, std430) readonly buffer Tables { uint mc_tables[]; };
layout(set = 0, binding = 3, std430) writeonly buffer Indirect {
  uint vertex_count;
  uint instance_count;
  uint first_vertex;
  uint first_instance;
} draw;
#include "include/record_pyramid.glsl"

void main() {
  uvec4 top = pyramid_texels[level_offset(rp.counts.y - 1u)];
  draw.vertex_count = top.x + top.y + top.z + top.w;
  draw.instance_count = 1u;
  draw.first_vertex = 0u;
  draw.first_instance = 0u;
}
