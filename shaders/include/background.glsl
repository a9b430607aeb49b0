// Sky from the baked cubemap, and an infinite checkered ground plane that writes its true depth
// so particles and surfaces drawn later are occluded by it correctly. Compiled twice:
// background.frag as is, background_shadowed.frag with RECEIVE_SHADOWS, where the ground's sun
// light is shadowed by the solids' shadow map (include/sun_shadow.glsl).
#include "include/frame.glsl"

layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 out_color;
layout(set = 0, binding = 0) uniform samplerCube sky;
layout(set = 0, binding = 1, std430) readonly buffer FrameBuffer { Frame frame; };
#ifdef RECEIVE_SHADOWS
#include "include/sun_shadow.glsl"
layout(set = 0, binding = 2) uniform sampler2DShadow shadow_map;
layout(push_constant) uniform Shadow {
  vec4 bounds_min;
  vec4 bounds_max;
} shadow;
#endif

void main() {
  vec2 ndc = uv * 2.0 - 1.0;
  vec4 far_point = frame.inv_view_proj * vec4(ndc, 1.0, 1.0);
  vec3 origin = frame.camera_position.xyz;
  vec3 dir = normalize(far_point.xyz / far_point.w - origin);

  vec3 sky_color = texture(sky, dir).rgb;
  float ground_height = frame.ground_color_a.w;
  bool ground = frame.flags.x > 0.5 && dir.y < -1e-4 && origin.y > ground_height;
  if (!ground) {
    out_color = vec4(sky_color, 1.0);
    gl_FragDepth = 1.0;
    return;
  }

  float t = (ground_height - origin.y) / dir.y;
  vec3 hit = origin + t * dir;
  vec2 cell = floor(hit.xz / frame.ground_color_b.w);
  float checker = mod(cell.x + cell.y, 2.0);
  vec3 albedo = mix(frame.ground_color_a.rgb, frame.ground_color_b.rgb, checker);

  vec3 sun_dir = normalize(frame.sun_direction.xyz);
  vec3 sun = frame.sun_color.rgb * frame.sun_direction.w * max(sun_dir.y, 0.0);
#ifdef RECEIVE_SHADOWS
  SunShadowSpace space = sun_shadow_space(frame.sun_direction.xyz, shadow.bounds_min.xyz, shadow.bounds_max.xyz,
                                          true, ground_height);
  if (sun_dir.y > 0.0) sun *= sun_shadow(shadow_map, space, hit, vec3(0.0, 1.0, 0.0));
#endif
  vec3 ambient = texture(sky, vec3(0.0, 1.0, 0.0)).rgb;
  vec3 lit = albedo * (sun + ambient) / 3.14159265;

  // Fade into the horizon colour with distance so the plane has no visible edge.
  float fog = 1.0 - exp(-t / (frame.flags.z * 0.35));
  out_color = vec4(mix(lit, sky_color, fog), 1.0);

  vec4 clip = frame.view_proj * vec4(hit, 1.0);
  gl_FragDepth = clamp(clip.z / clip.w, 0.0, 1.0);
}
