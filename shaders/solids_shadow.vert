#version 460
// solids.shadow: the opaque solids' depth as the sun sees them (include/sun_shadow.glsl).
#include "include/frame.glsl"
#include "include/solid_vertex.glsl"
#include "include/sun_shadow.glsl"

layout(set = 0, binding = 0, std430) readonly buffer Vertices { SolidVertex vertices[]; };
layout(set = 0, binding = 1, std430) readonly buffer FrameBuffer { Frame frame; };
layout(push_constant) uniform Shadow {
  vec4 bounds_min;
  vec4 bounds_max;
} shadow;

void main() {
  SunShadowSpace s = sun_shadow_space(frame.sun_direction.xyz, shadow.bounds_min.xyz, shadow.bounds_max.xyz,
                                      frame.flags.x > 0.5, frame.ground_color_a.w);
  gl_Position = vec4(sun_shadow_clip(s, vertices[gl_VertexIndex].position.xyz), 1.0);
}
