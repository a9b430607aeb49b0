// What the solids share with the ground they stand on: the same sun, the sky cubemap as ambient
// light and the same distance fog as background.frag, so a block and the floor beside it agree.
const float kPi = 3.14159265;

vec3 sun_radiance(Frame frame) { return frame.sun_color.rgb * frame.sun_direction.w; }

// Sky light reaching a surface facing `n`. Facing up it is the ground's own ambient term
// (background.frag: the cubemap straight up); turned sideways or down, the upper half of what
// it sees is sky above the horizon and the lower half is the ground, which sends back the sun
// and sky light it receives at its mean albedo. (The cubemap along n alone would light a wall
// with the bright horizon and leave shaded faces as bright as sunlit ground.)
vec3 ambient_light(Frame frame, samplerCube sky, vec3 n) {
  vec3 up = vec3(0.0, 1.0, 0.0);
  vec3 sky_light = texture(sky, normalize(n + up * 1.001)).rgb;
  vec3 sun_dir = normalize(frame.sun_direction.xyz);
  float albedo = dot(0.5 * (frame.ground_color_a.rgb + frame.ground_color_b.rgb), vec3(1.0 / 3.0));
  vec3 bounce = albedo * (sun_radiance(frame) * max(sun_dir.y, 0.0) + texture(sky, up).rgb) / kPi;
  float toward_sky = 0.5 + 0.5 * n.y;
  return sky_light * toward_sky + bounce * (1.0 - toward_sky);
}

// background.frag's fade into the sky with distance.
vec3 apply_fog(Frame frame, samplerCube sky, vec3 color, vec3 world) {
  vec3 to_point = world - frame.camera_position.xyz;
  float t = length(to_point);
  float fog = 1.0 - exp(-t / (frame.flags.z * 0.35));
  return mix(color, texture(sky, to_point / t).rgb, fog);
}

// Blinn-Phong lobe normalised so rougher surfaces spread the same energy wider.
float specular_lobe(float n_dot_h, float roughness) {
  float shininess = exp2(11.0 * (1.0 - roughness)) + 2.0;
  return (shininess + 8.0) / (8.0 * kPi) * pow(n_dot_h, shininess);
}

vec3 schlick(vec3 f0, float cos_theta) { return f0 + (1.0 - f0) * pow(1.0 - cos_theta, 5.0); }
