#version 460
// surface.histopyramid: direct drawing. Vertex k of the draw is output key k of the pyramid;
// the vertex count came from the pyramid's top through an indirect draw.
#include "include/frame.glsl"
layout(set = 0, binding = 0, std430) readonly buffer Volume { float volume_values[]; };
layout(set = 0, binding = 1, std430) readonly buffer Pyramid { uvec4 pyramid_texels[]; };
layout(set = 0, binding = 2, std430) readonly buffer Tables { uint mc_tables[]; };
layout(set = 0, binding = 3, std430) readonly buffer FrameBuffer { Frame frame; };
// After the 64 bytes of HistoPyramidParams: the layer colour, then the volume-to-world affine
// transform as three rows (scale, rotation, translation in w).
#define HISTOPYRAMID_PUSH_EXTRA vec4 surface_color; vec4 model_rows[3];
#include "include/histopyramid.glsl"

layout(location = 0) out vec3 world_position;
layout(location = 1) out vec3 world_normal;

void main() {
  vec3 position, normal;
  uint edge_id;
  emit_vertex(uint(gl_VertexIndex), position, normal, edge_id);
  mat3x4 model = mat3x4(hp.model_rows[0], hp.model_rows[1], hp.model_rows[2]);
  world_position = vec4(position, 1.0) * model;  // row vectors: (M * p) for a 3x4 M
  world_normal = normalize(vec4(normal, 0.0) * model);
  gl_Position = frame.view_proj * vec4(world_position, 1.0);
}
