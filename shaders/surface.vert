#version 460
// surface.histopyramid: direct drawing. Vertex k of the draw is output key k of the pyramid;
// the vertex count came from the pyramid's top through an indirect draw.
#include "include/frame.glsl"
layout(set = 0, binding = 0, std430) readonly buffer Volume { float volume_values[]; };
layout(set = 0, binding = 1, std430) readonly buffer Pyramid { uvec4 pyramid_texels[]; };
layout(set = 0, binding = 2, std430) readonly buffer Tables { uint mc_tables[]; };
layout(set = 0, binding = 3, std430) readonly buffer FrameBuffer { Frame frame; };
#include "include/histopyramid.glsl"

layout(location = 0) out vec3 world_position;
layout(location = 1) out vec3 world_normal;

void main() {
  vec3 position, normal;
  emit_vertex(uint(gl_VertexIndex), position, normal);
  world_position = position;
  world_normal = normal;
  gl_Position = frame.view_proj * vec4(position, 1.0);
}
