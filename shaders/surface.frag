#version 460
// Lit iso-surface: two-sided Lambert + Blinn-Phong under the sun and the sky.
#include "include/frame.glsl"
layout(set = 0, binding = 3, std430) readonly buffer FrameBuffer { Frame frame; };
layout(set = 0, binding = 4) uniform samplerCube sky;
layout(location = 0) in vec3 world_position;
layout(location = 1) in vec3 world_normal;
layout(location = 0) out vec4 out_color;
layout(push_constant) uniform HistoPyramidParamsFragment {
  layout(offset = 64) vec4 color;
} surface;

void main() {
  vec3 n = normalize(world_normal);
  vec3 v = normalize(frame.camera_position.xyz - world_position);
  if (dot(n, v) < 0.0) n = -n;  // open surfaces show their back side lit too
  vec3 l = normalize(frame.sun_direction.xyz);
  vec3 h = normalize(l + v);
  vec3 sun = frame.sun_color.rgb * frame.sun_direction.w;
  vec3 ambient = texture(sky, n).rgb;
  vec3 diffuse = surface.color.rgb * (sun * max(dot(n, l), 0.0) + ambient) / 3.14159265;
  vec3 specular = sun * 0.04 * pow(max(dot(n, h), 0.0), 48.0);
  out_color = vec4(diffuse + specular, surface.color.a);
}
