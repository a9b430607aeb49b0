#version 460
// Stream extraction into a vertex buffer (for meshes read back and for tests): one invocation
// per output key, as the vertex shader does when drawing directly.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer Volume { float volume_values[]; };
layout(set = 0, binding = 1, std430) readonly buffer Pyramid { uvec4 pyramid_texels[]; };
layout(set = 0, binding = 2, std430) readonly buffer Tables { uint mc_tables[]; };
layout(set = 0, binding = 3, std430) readonly buffer Indirect { uint vertex_count; } draw;
// Pairs per vertex: (position, edge id as float bits), (normal, 0).
layout(set = 0, binding = 4, std430) writeonly buffer Vertices { vec4 vertices[]; };
#include "include/histopyramid.glsl"

void main() {
  uint key = gl_GlobalInvocationID.x;
  if (key >= draw.vertex_count || 2u * key + 1u >= uint(vertices.length())) return;
  vec3 position, normal;
  uint edge_id;
  emit_vertex(key, position, normal, edge_id);
  vertices[2u * key] = vec4(position, uintBitsToFloat(edge_id));
  vertices[2u * key + 1u] = vec4(normal, 0.0);
}
