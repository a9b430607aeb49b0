#version 460
// solids.opaque: stone and metal, lit as the ground is (sun shadowed by the sun's shadow map,
// sky cubemap ambient), fogged as the ground is.
#include "include/frame.glsl"
#include "include/solid_vertex.glsl"
#include "include/solid_lighting.glsl"
#include "include/sun_shadow.glsl"

layout(location = 0) in vec3 world;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec4 color;
layout(location = 3) in vec4 panel;
layout(location = 4) in float occlusion;
layout(location = 5) flat in float kind;
layout(location = 0) out vec4 out_color;

layout(set = 0, binding = 1, std430) readonly buffer FrameBuffer { Frame frame; };
layout(set = 0, binding = 2) uniform samplerCube sky;
layout(set = 0, binding = 3) uniform sampler2DShadow shadow_map;
layout(push_constant) uniform Shadow {
  vec4 bounds_min;
  vec4 bounds_max;
} shadow;

float hash(vec3 p) {
  p = fract(p * 0.3183099 + 0.1);
  p *= 17.0;
  return fract(p.x * p.y * p.z * (p.x + p.y + p.z));
}

float value_noise(vec3 p) {
  vec3 i = floor(p), f = fract(p);
  f = f * f * (3.0 - 2.0 * f);
  return mix(mix(mix(hash(i), hash(i + vec3(1, 0, 0)), f.x), mix(hash(i + vec3(0, 1, 0)), hash(i + vec3(1, 1, 0)), f.x), f.y),
             mix(mix(hash(i + vec3(0, 0, 1)), hash(i + vec3(1, 0, 1)), f.x), mix(hash(i + vec3(0, 1, 1)), hash(i + vec3(1, 1, 1)), f.x), f.y),
             f.z);
}

// Cast concrete: large soft blotches and a fine grain, a few percent each, in world space so
// adjoining faces continue one another.
float mottle(vec3 p) {
  return 0.88 + 0.14 * value_noise(p * 9.0) + 0.08 * value_noise(p * 60.0) + 0.04 * value_noise(p * 240.0);
}

void main() {
  vec3 n = normalize(normal);
  vec3 v = normalize(frame.camera_position.xyz - world);
  vec3 l = normalize(frame.sun_direction.xyz);
  vec3 h = normalize(l + v);
  SunShadowSpace space = sun_shadow_space(frame.sun_direction.xyz, shadow.bounds_min.xyz, shadow.bounds_max.xyz,
                                          frame.flags.x > 0.5, frame.ground_color_a.w);
  float n_dot_l = max(dot(n, l), 0.0);
  float lit = n_dot_l > 0.0 ? sun_shadow(shadow_map, space, world, n) : 0.0;
  vec3 sun = sun_radiance(frame) * n_dot_l * lit;
  vec3 ambient = ambient_light(frame, sky, n) * occlusion;
  float roughness = color.w;
  float lobe = specular_lobe(max(dot(n, h), 0.0), roughness);

  vec3 result;
  if (kind == kSolidMetal) {
    // Reflectance is the colour; what it reflects is the sky, blurred towards the normal's
    // direction as roughness grows (the cubemap has no mips to blur with).
    float n_dot_v = max(dot(n, v), 0.0);
    vec3 fresnel = schlick(color.rgb, n_dot_v);
    vec3 r = normalize(mix(reflect(-v, n), n, roughness * roughness));
    vec3 environment = texture(sky, r).rgb * occlusion;
    result = fresnel * environment * (1.0 - 0.5 * roughness) + schlick(color.rgb, max(dot(h, v), 0.0)) * sun * lobe +
             0.08 * color.rgb * (sun + ambient) / kPi;
  } else {
    vec3 albedo = color.rgb * mottle(world);
    result = albedo * (sun + ambient) / kPi + 0.04 * sun * lobe;
  }
  out_color = vec4(apply_fog(frame, sky, result, world), 1.0);
}
