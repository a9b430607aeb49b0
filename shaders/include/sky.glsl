// The procedural sky, shared by the cubemap bake and nothing else on purpose: everything that
// shows the sky samples the cubemap, so the two can never disagree.
vec3 sky_radiance(vec3 dir, vec3 sun_dir, vec3 sun_color, float sun_intensity, vec3 zenith,
                  vec3 horizon) {
  float elevation = dir.y;
  // Above the horizon: a gradient that stays bright near the horizon (aerial perspective).
  float t = 1.0 - exp(-max(elevation, 0.0) * 7.0);
  vec3 sky = mix(horizon, zenith, t);
  // Below the horizon the sky fades into a dim ground bounce colour.
  vec3 below = horizon * 0.35;
  sky = elevation >= 0.0 ? sky : mix(horizon, below, clamp(-elevation * 4.0, 0.0, 1.0));
  float cos_sun = max(dot(dir, sun_dir), 0.0);
  vec3 glow = sun_color * (0.25 * pow(cos_sun, 8.0) + 0.6 * pow(cos_sun, 64.0));
  vec3 disk = sun_color * smoothstep(0.9995, 0.9998, cos_sun) * 40.0;
  return sky + sun_intensity * 0.1 * (glow + disk);
}

// Direction through texel (x, y) of cube face `face` (Vulkan order +X -X +Y -Y +Z -Z),
// with uv in [-1, 1].
vec3 cube_direction(uint face, vec2 uv) {
  switch (face) {
    case 0u: return normalize(vec3(1.0, -uv.y, -uv.x));
    case 1u: return normalize(vec3(-1.0, -uv.y, uv.x));
    case 2u: return normalize(vec3(uv.x, 1.0, uv.y));
    case 3u: return normalize(vec3(uv.x, -1.0, -uv.y));
    case 4u: return normalize(vec3(uv.x, -uv.y, 1.0));
    default: return normalize(vec3(-uv.x, -uv.y, -1.0));
  }
}
