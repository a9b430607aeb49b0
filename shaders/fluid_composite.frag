#version 460
// fluid.composite (Eq. 5.13-5.15), at fluid resolution: shades the smoothed surface into a
// premultiplied colour with coverage in alpha (0 where there is no fluid), which
// fluid.upsample then blends over the scene at full resolution.
//   C = a (1 - F) + b F + k_s (n.h)^alpha
//   a = lerp(C_fluid, S(x + beta n_x, y + beta n_y), exp(-k T)), beta = gamma T, per channel k
//   b = the sky cubemap along the reflected view ray
// Normals come from the smoothed depth (Eq. 5.4 with the exact view positions); at a depth
// discontinuity the smaller one-sided difference is used so silhouettes do not pick up the
// slope of the gap. With foam on, the noise image bends the normals and tints the surface.
#include "include/frame.glsl"
#include "include/fluid_common.glsl"

layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 out_color;

layout(set = 0, binding = 0, std430) readonly buffer FrameBuffer { Frame frame; };
layout(set = 0, binding = 1) uniform sampler2D surface_depth;
layout(set = 0, binding = 2) uniform sampler2D thickness_image;
layout(set = 0, binding = 3) uniform sampler2D noise_image;
layout(set = 0, binding = 4) uniform sampler2D scene_color;
layout(set = 0, binding = 5) uniform samplerCube sky;
layout(push_constant) uniform Constants {
  vec4 fluid_color;  // rgb; a = refraction gamma (Eq. 5.15)
  vec4 absorption;   // rgb per metre; a = k_s
  vec4 foam_color;   // rgb; a = 1 + the calm noise amplitude with foam (noise bound), 0 without
  vec2 c;            // (Cx, Cy) for the curvature view
  float edge;        // depth discontinuity threshold, metres
  float shininess;
  float radius;
  uint debug_view;   // 0 none, 1 depth, 2 thickness, 3 curvature, 4 noise
} constants;

ivec2 g_size;

float fluid_load(ivec2 p) {
  if (any(lessThan(p, ivec2(0))) || any(greaterThanEqual(p, g_size))) return 0.0;
  return texelFetch(surface_depth, p, 0).r;
}

#include "include/fluid_curvature.glsl"

float noise_at(ivec2 p) {
  return texelFetch(noise_image, clamp(p, ivec2(0), g_size - 1), 0).r;
}

// Derivative of the view position along one axis: central where both neighbours belong to the
// same surface, else the one-sided difference with the smaller depth change.
vec3 position_derivative(ivec2 p, ivec2 axis, float z, vec3 center) {
  vec2 size = vec2(g_size);
  float zp = fluid_load(p + axis), zm = fluid_load(p - axis);
  bool ok_p = zp > 0.0 && abs(zp - z) < constants.edge;
  bool ok_m = zm > 0.0 && abs(zm - z) < constants.edge;
  vec3 forward = view_position(frame.proj, vec2(p + axis), size, zp) - center;
  vec3 backward = center - view_position(frame.proj, vec2(p - axis), size, zm);
  if (ok_p && ok_m) return 0.5 * (forward + backward);
  if (zp > 0.0 && zm > 0.0) return abs(zp - z) < abs(zm - z) ? forward : backward;
  if (zp > 0.0) return forward;
  if (zm > 0.0) return backward;
  return vec3(0.0);
}

vec3 debug_color(ivec2 p, float z, float thickness, float noise) {
  switch (constants.debug_view) {
    case 1u: return vec3(exp(-0.25 * z));
    case 2u: return vec3(0.2, 0.5, 1.0) * (1.0 - exp(-4.0 * thickness));
    case 3u: {
      // Figure 5.7's coding: black flat, green convex towards the viewer, red concave. Eq. 5.6
      // measures curvature against the pixel grid (a sphere of radius r gives |H| ~ C z / r),
      // so it is divided by the pixel footprint C z: one full unit is a single particle's 1 / r.
      float footprint = 0.5 * (constants.c.x + constants.c.y) * z;
      float h = -mean_curvature(p, z, constants.c, constants.edge) * constants.radius / footprint;
      return vec3(max(-h, 0.0), max(h, 0.0), 0.0);
    }
    default: return vec3(clamp(0.5 + noise, 0.0, 1.0));
  }
}

void main() {
  g_size = textureSize(surface_depth, 0);
  ivec2 p = ivec2(gl_FragCoord.xy);
  float z = texelFetch(surface_depth, p, 0).r;
  float thickness = texelFetch(thickness_image, p, 0).r;
  float noise = constants.foam_color.a > 0.5 ? texelFetch(noise_image, p, 0).r : 0.0;
  if (z <= 0.0) {
    // Thickness alone (no surface) only shows in its own debug view.
    bool show = constants.debug_view == 2u && thickness > 0.0;
    out_color = show ? vec4(debug_color(p, z, thickness, noise), 1.0) : vec4(0.0);
    return;
  }
  if (constants.debug_view != 0u) {
    out_color = vec4(debug_color(p, z, thickness, noise), 1.0);
    return;
  }

  vec3 center = view_position(frame.proj, vec2(p), vec2(g_size), z);
  vec3 n = normalize(cross(position_derivative(p, ivec2(0, 1), z, center),
                           position_derivative(p, ivec2(1, 0), z, center)));
  vec3 v = normalize(-center);
  if (dot(n, v) < 0.0) n = -n;  // orientation from the pixel axes; the surface faces the eye
  if (constants.foam_color.a > 0.5) {
    float dndx = noise_at(p + ivec2(1, 0)) - noise_at(p - ivec2(1, 0));
    float dndy = noise_at(p + ivec2(0, 1)) - noise_at(p - ivec2(0, 1));
    n = normalize(n + vec3(-dndx, dndy, 0.0));
  }

  mat3 to_world = transpose(mat3(frame.view));
  vec3 n_world = to_world * n;
  vec3 v_world = to_world * v;
  vec3 l = normalize(frame.sun_direction.xyz);
  vec3 h = normalize(l + v_world);

  // Refraction (Eq. 5.14-5.15): the scene behind, displaced along the normal by beta.
  float beta = thickness * constants.fluid_color.a;
  vec2 offset = vec2(n.x, -n.y) * beta;  // view y up, texture v down
  vec3 behind = texture(scene_color, clamp(uv + offset, vec2(0.0), vec2(1.0))).rgb;
  vec3 transmit = exp(-constants.absorption.rgb * thickness);
  vec3 refracted = mix(constants.fluid_color.rgb, behind, transmit);

  vec3 reflected = texture(sky, reflect(-v_world, n_world)).rgb;
  float fresnel = 0.02 + 0.98 * pow(1.0 - max(dot(n_world, v_world), 0.0), 5.0);  // Schlick, water
  vec3 sun = frame.sun_color.rgb * frame.sun_direction.w;
  vec3 specular = constants.absorption.a * pow(max(dot(n_world, h), 0.0), constants.shininess) * sun;
  vec3 color = refracted * (1.0 - fresnel) + reflected * fresnel + specular;
  // Foam is the noise only agitated particles reach (Eq. 5.12 boosts their amplitude): the
  // calm surface's noise bends its normals but stays water, so still water shows no speckle.
  if (constants.foam_color.a > 0.5) {
    float calm = constants.foam_color.a - 1.0;
    color = mix(color, constants.foam_color.rgb, clamp(2.0 * (noise - calm), 0.0, 1.0));
  }
  out_color = vec4(color, 1.0);
}
