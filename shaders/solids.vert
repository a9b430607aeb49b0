#version 460
// The solids seen by the camera (solids.opaque and solids.glass), pulled from the vertex list.
#include "include/frame.glsl"
#include "include/solid_vertex.glsl"

layout(set = 0, binding = 0, std430) readonly buffer Vertices { SolidVertex vertices[]; };
layout(set = 0, binding = 1, std430) readonly buffer FrameBuffer { Frame frame; };

layout(location = 0) out vec3 world;
layout(location = 1) out vec3 normal;
layout(location = 2) out vec4 color;
layout(location = 3) out vec4 panel;
layout(location = 4) out float occlusion;
layout(location = 5) flat out float kind;

void main() {
  SolidVertex v = vertices[gl_VertexIndex];
  world = v.position.xyz;
  normal = v.normal.xyz;
  color = v.color;
  panel = v.panel;
  occlusion = v.normal.w;
  kind = v.position.w;
  gl_Position = frame.view_proj * vec4(world, 1.0);
}
