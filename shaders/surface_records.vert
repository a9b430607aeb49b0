#version 460
// surface.<layer>.draw for a level set: direct drawing from cube records. Vertex k of the draw
// is output key k of the record pyramid; the vertex count came from the pyramid's top through
// an indirect draw. Shaded by surface.frag, as the dense-volume surface.
#include "include/frame.glsl"
layout(set = 0, binding = 0, std430) readonly buffer Records { uint record_words[]; };
layout(set = 0, binding = 1, std430) readonly buffer Pyramid { uvec4 pyramid_texels[]; };
layout(set = 0, binding = 2, std430) readonly buffer Tables { uint mc_tables[]; };
layout(set = 0, binding = 3, std430) readonly buffer FrameBuffer { Frame frame; };
// After the 64 bytes of RecordPyramidParams: the layer colour (read by surface.frag at offset
// 64), then the model-to-world affine transform as three rows.
#define RECORD_PYRAMID_PUSH_EXTRA vec4 surface_color; vec4 model_rows[3];
#include "include/record_pyramid.glsl"

layout(location = 0) out vec3 world_position;
layout(location = 1) out vec3 world_normal;

void main() {
  vec3 position, normal;
  uint record, local_key;
  emit_vertex(uint(gl_VertexIndex), position, normal, record, local_key);
  mat3x4 model = mat3x4(rp.model_rows[0], rp.model_rows[1], rp.model_rows[2]);
  world_position = vec4(position, 1.0) * model;  // row vectors: (M * p) for a 3x4 M
  world_normal = normalize(vec4(normal, 0.0) * model);
  gl_Position = frame.view_proj * vec4(world_position, 1.0);
}
