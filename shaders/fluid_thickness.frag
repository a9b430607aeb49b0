#version 460
// fluid.thickness (Eq. 5.9): every sprite adds the length of the view ray inside its sphere
// (the chord, an exact depth kernel d), blended additively. The chord is cut where the ray meets
// the opaque scene, which is the scene depth test of the thesis done per fragment: a particle
// half sunk into the ground adds only its part in front of the ground.
#include "include/frame.glsl"
#include "include/fluid_common.glsl"
#include "include/fluid_sprite.glsl"

layout(location = 0) in vec3 quad_view;
layout(location = 1) in vec3 center_view;
layout(location = 0) out float out_thickness;

layout(set = 0, binding = 1, std430) readonly buffer FrameBuffer { Frame frame; };
layout(set = 0, binding = 2) uniform sampler2D scene_depth;

void main() {
  vec3 ray = normalize(quad_view);
  float t_near, t_far;
  if (!ray_sphere(ray, center_view, sprite.radius, t_near, t_far)) discard;
  float scene = texelFetch(scene_depth, ivec2(gl_FragCoord.xy * sprite.scene_scale), 0).r;
  // Ray parameter where the ray reaches the scene's view depth.
  float t_scene = view_from_depth(frame.proj, scene) / max(-ray.z, 1e-6);
  float chord = min(t_far, t_scene) - max(t_near, 0.0);
  if (chord <= 0.0) discard;
  out_thickness = chord;
}
