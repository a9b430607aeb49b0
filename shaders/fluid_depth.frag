#version 460
// fluid.depth: the front-most fluid surface per pixel (thesis section 5.3.1). Each sprite is
// ray cast against its sphere; the hit replaces the fragment depth so the hardware depth test
// keeps the nearest sphere, and its view depth goes to the R32F surface-depth image that the
// smoothing filters work on. Fragments behind the opaque scene are dropped here, so the scene
// occludes fluid even though the fluid has its own depth buffer.
#include "include/frame.glsl"
#include "include/fluid_common.glsl"
#include "include/fluid_sprite.glsl"

layout(location = 0) in vec3 quad_view;
layout(location = 1) in vec3 center_view;
layout(location = 0) out float out_depth;

layout(set = 0, binding = 1, std430) readonly buffer FrameBuffer { Frame frame; };
layout(set = 0, binding = 2) uniform sampler2D scene_depth;

void main() {
  vec3 ray = normalize(quad_view);
  float t_near, t_far;
  if (!ray_sphere(ray, center_view, sprite.radius, t_near, t_far) || t_near <= 0.0) discard;
  vec3 hit = ray * t_near;
  float depth = depth_from_view(frame.proj, -hit.z);
  float scene = texelFetch(scene_depth, ivec2(gl_FragCoord.xy * sprite.scene_scale), 0).r;
  if (depth >= scene) discard;
  gl_FragDepth = depth;
  out_depth = -hit.z;
}
