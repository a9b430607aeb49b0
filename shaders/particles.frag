#version 460
// Ray-sphere intersection per fragment gives the exact surface point: depth is replaced with it
// so intersecting spheres and the ground occlude each other per pixel.
#include "include/frame.glsl"

layout(location = 0) in vec2 corner;
layout(location = 1) in vec3 center_view;
layout(location = 2) in vec3 albedo;
layout(location = 0) out vec4 out_color;

layout(set = 0, binding = 1, std430) readonly buffer FrameBuffer { Frame frame; };
layout(set = 0, binding = 2) uniform samplerCube sky;
layout(push_constant) uniform Settings {
  vec4 color;
  float radius;
  float speed_scale;
} settings;

void main() {
  if (dot(corner, corner) > 1.0) discard;
  // Exact ray-sphere hit along the view ray through this fragment.
  vec3 toward_camera = -normalize(center_view) * settings.radius;
  vec3 on_quad = center_view + toward_camera + vec3(corner * settings.radius, 0.0);
  vec3 ray = normalize(on_quad);
  float b = dot(ray, center_view);
  float c = dot(center_view, center_view) - settings.radius * settings.radius;
  float disc = b * b - c;
  if (disc < 0.0) discard;
  vec3 hit = ray * (b - sqrt(disc));
  vec3 normal_view = normalize(hit - center_view);

  vec4 clip = frame.proj * vec4(hit, 1.0);
  gl_FragDepth = clip.z / clip.w;

  mat3 to_world = transpose(mat3(frame.view));
  vec3 n = to_world * normal_view;
  vec3 v = to_world * normalize(-hit);
  vec3 l = normalize(frame.sun_direction.xyz);
  vec3 h = normalize(l + v);
  vec3 sun = frame.sun_color.rgb * frame.sun_direction.w;
  vec3 ambient = texture(sky, n).rgb;
  vec3 diffuse = albedo * (sun * max(dot(n, l), 0.0) + ambient) / 3.14159265;
  vec3 specular = sun * 0.04 * pow(max(dot(n, h), 0.0), 64.0);
  out_color = vec4(diffuse + specular, 1.0);
}
