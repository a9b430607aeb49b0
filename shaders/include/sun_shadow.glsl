// The sun's shadow map: an orthographic view along the sun direction around the sphere that
// bounds the shadow casters and the ground beneath them. Casters (solids_shadow.vert) and
// receivers (solids, the ground) rebuild the same projection from the frame's sun direction and
// the casters' box, pushed as constants, so no matrix has to be computed on the host from a sun
// the host does not own.
struct SunShadowSpace {
  vec3 center;
  float radius;
  vec3 right;
  vec3 up;
  vec3 toward_sun;
};

SunShadowSpace sun_shadow_space(vec3 sun_direction, vec3 bounds_min, vec3 bounds_max, bool ground,
                                float ground_height) {
  vec3 lo = bounds_min;
  // The ground the casters stand on receives their shadows: it belongs in the depth range.
  if (ground) lo.y = min(lo.y, ground_height);
  SunShadowSpace s;
  s.center = 0.5 * (lo + bounds_max);
  s.radius = max(0.5 * length(bounds_max - lo), 1e-3) * 1.02;
  s.toward_sun = normalize(sun_direction);
  vec3 helper = abs(s.toward_sun.y) < 0.99 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0);
  s.right = normalize(cross(helper, s.toward_sun));
  s.up = cross(s.toward_sun, s.right);
  return s;
}

// xy in [-1, 1] across the sphere, z in [0, 1] from its sun side to its far side.
vec3 sun_shadow_clip(SunShadowSpace s, vec3 world) {
  vec3 q = world - s.center;
  return vec3(dot(q, s.right), dot(q, s.up), -dot(q, s.toward_sun)) / s.radius * vec3(1.0, 1.0, 0.5) +
         vec3(0.0, 0.0, 0.5);
}

// Fraction of the sun reaching `world` (surface normal `n`): 4 x 4 bilinear comparisons, about
// five texels wide. The lookup point is pushed out along the normal by a texel and a half, which
// keeps lit surfaces from shadowing themselves at any slope. Receivers beyond the far side
// compare at the far side: shadowed by any caster, lit where there is none.
float sun_shadow(sampler2DShadow map, SunShadowSpace s, vec3 world, vec3 n) {
  float size = float(textureSize(map, 0).x);
  float texel = 2.0 * s.radius / size;
  vec3 c = sun_shadow_clip(s, world + n * (1.5 * texel));
  vec2 uv = c.xy * 0.5 + 0.5;
  if (any(lessThan(uv, vec2(0.0))) || any(greaterThan(uv, vec2(1.0)))) return 1.0;
  float reference = clamp(c.z - 1.0 / size, 0.0, 1.0);
  float lit = 0.0;
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 4; ++i) lit += texture(map, vec3(uv + (vec2(i, j) - 1.5) / size, reference));
  return lit / 16.0;
}
