#version 460
// The tank's glass, blended over what lies behind it (no depth write). Each wall is the outer
// face of a slab; `near_side` picks which side of those faces this draw shows:
//   0 (in solids.opaque, before the fluid): the walls seen from inside, i.e. the far walls and
//     the floor, so the fluid's refraction of the scene behind it sees them;
//   1 (solids.glass, after the fluid): the walls facing the camera, over the fluid.
// Looking through a pane shows the sky's reflection (Fresnel, Schlick with n = 1.5), a faint
// tint that grows as the path through the glass lengthens at grazing angles, the sun's
// highlight, and the pane's edges (seen along their length) as nearly opaque green-grey lines.
#include "include/frame.glsl"
#include "include/solid_vertex.glsl"
#include "include/solid_lighting.glsl"

layout(location = 0) in vec3 world;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec4 color;
layout(location = 3) in vec4 panel;
layout(location = 4) in float occlusion;
layout(location = 5) flat in float kind;
layout(location = 0) out vec4 out_color;

layout(set = 0, binding = 1, std430) readonly buffer FrameBuffer { Frame frame; };
layout(set = 0, binding = 2) uniform samplerCube sky;
layout(push_constant) uniform Glass { uint near_side; } glass;

void main() {
  vec3 n = normalize(normal);
  vec3 v = normalize(frame.camera_position.xyz - world);
  bool outside = dot(n, v) > 0.0;
  if (outside != (glass.near_side != 0u)) discard;
  if (!outside) n = -n;

  float thickness = color.w;
  float edge = 1.0;
  if (panel.z > 0.0) {
    float e = min(min(panel.x, panel.z - panel.x), min(panel.y, panel.w - panel.y));
    float aa = fwidth(e);
    edge = 1.0 - smoothstep(thickness - aa, thickness + aa, e);
  }

  float n_dot_v = max(dot(n, v), 0.0);
  float fresnel = schlick(vec3(0.04), n_dot_v).x;
  // Path length through the pane over its thickness, from Snell's law.
  float cos_t = sqrt(1.0 - (1.0 - n_dot_v * n_dot_v) / 2.25);
  float body_alpha = min(0.06 / cos_t, 0.35);

  vec3 l = normalize(frame.sun_direction.xyz);
  vec3 h = normalize(l + v);
  vec3 sun = sun_radiance(frame);
  vec3 diffuse_light = (sun * max(dot(n, l), 0.0) + ambient_light(frame, sky, n)) / kPi;
  vec3 tint = color.rgb;
  vec3 body = tint * diffuse_light * 0.6;
  vec3 edge_color = tint * tint * diffuse_light * 0.35;
  float alpha = mix(body_alpha, 0.85, edge);
  vec3 premultiplied = alpha * mix(body, edge_color, edge);

  // Reflection over the body, then the highlight.
  vec3 reflected = texture(sky, reflect(-v, n)).rgb;
  premultiplied = fresnel * reflected + (1.0 - fresnel) * premultiplied;
  alpha = fresnel + (1.0 - fresnel) * alpha;
  premultiplied += sun * schlick(vec3(0.04), max(dot(h, v), 0.0)).x * specular_lobe(max(dot(n, h), 0.0), 0.02) *
                   max(dot(n, l), 0.0);
  out_color = vec4(premultiplied / alpha, alpha);
}
