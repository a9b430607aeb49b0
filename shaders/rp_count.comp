#version 460
// Record HistoPyramid level 0: texel i holds the vertex counts of records 4i..4i+3; records
// past the header's count (the rest of the buffer's capacity) count none.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer Records { uint record_words[]; };
layout(set = 0, binding = 1, std430) buffer Pyramid { uvec4 pyramid_texels[]; };
layout(set = 0, binding = 2, std430) readonly buffer Tables { uint mc_tables[]; };
#include "include/record_pyramid.glsl"

uint count_of(uint record, uint records) { return record < records ? case_vertices(record_case(record)) : 0u; }

void main() {
  uint texel = gl_GlobalInvocationID.x;
  if (texel >= texels_at(0u)) return;
  uint r = 4u * texel, n = record_count();
  pyramid_texels[texel] = uvec4(count_of(r, n), count_of(r + 1u, n), count_of(r + 2u, n), count_of(r + 3u, n));
}
