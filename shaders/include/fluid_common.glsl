// Shared by the fluid passes (passes/fluid). Conventions:
//  - "view depth" is the positive distance along the camera's -Z axis, in metres; 0 in a fluid
//    depth image means "no fluid here" (the clear value), so every reader can test it;
//  - fluid images may be smaller than the scene (half/quarter resolution): `scene_scale` full
//    resolution pixels per fluid pixel.

struct Particle {
  vec3 position;
  float density;
  vec3 velocity;
  float agitation;
};

// Clip-space depth (0..1, what the depth buffer holds) of a point at view depth z, and back.
// Only proj[2][2] and proj[3][2] matter for a perspective projection.
float depth_from_view(mat4 proj, float z) {
  return (proj[2][2] * -z + proj[3][2]) / z;
}
float view_from_depth(mat4 proj, float depth) {
  return proj[3][2] / (depth + proj[2][2]);
}

// The view-space point seen through fluid pixel `pixel` (centre) of an image of `size` at view
// depth z (symmetric perspective: proj[0][0], proj[1][1] are the focal lengths, y flipped).
vec3 view_position(mat4 proj, vec2 pixel, vec2 size, float z) {
  vec2 ndc = (pixel + 0.5) / size * 2.0 - 1.0;
  return vec3(ndc.x / proj[0][0] * z, ndc.y / proj[1][1] * z, -z);
}

// Ray from the eye (view-space origin) along unit `ray` against a sphere: near and far ray
// parameters, or false when it misses.
bool ray_sphere(vec3 ray, vec3 center, float radius, out float t_near, out float t_far) {
  float b = dot(ray, center);
  float c = dot(center, center) - radius * radius;
  float disc = b * b - c;
  if (disc < 0.0) return false;
  float s = sqrt(disc);
  t_near = b - s;
  t_far = b + s;
  return true;
}
