#version 460
// Extraction of the record surface into a buffer (tests, read-back): one invocation per output
// key, exactly as the vertex shader draws it.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer Records { uint record_words[]; };
layout(set = 0, binding = 1, std430) readonly buffer Pyramid { uvec4 pyramid_texels[]; };
layout(set = 0, binding = 2, std430) readonly buffer Tables { uint mc_tables[]; };
layout(set = 0, binding = 3, std430) readonly buffer Indirect { uint vertex_count; } draw;
// Pairs per vertex: (position, record index as float bits), (normal, local key as float bits).
layout(set = 0, binding = 4, std430) writeonly buffer Vertices { vec4 vertices[]; };
#include "include/record_pyramid.glsl"

void main() {
  uint key = gl_GlobalInvocationID.x;
  if (key >= draw.vertex_count || 2u * key + 1u >= uint(vertices.length())) return;
  vec3 position, normal;
  uint record, local_key;
  emit_vertex(key, position, normal, record, local_key);
  vertices[2u * key] = vec4(position, uintBitsToFloat(record));
  vertices[2u * key + 1u] = vec4(normal, uintBitsToFloat(local_key));
}
