#version 460
// Reference MIP: one orthographic ray per pixel, the maximum of every voxel it passes through
// (nearest voxels, visited exactly by a 3-D DDA: Amanatides & Woo 1987). Along an axis through
// voxel centres the ray visits exactly one voxel column, which makes it the exact reference
// the pyramid MIPs are compared with.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, std430) readonly buffer Volume { uint voxels[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Image { uint pixels[]; };
layout(push_constant) uniform Ray {
  vec4 origin;  // pixel (0, 0)'s ray starts here, in voxel units (voxel k spans [k, k + 1))
  vec4 right;   // one pixel to the right
  vec4 up;      // one pixel up the image
  vec4 dir;     // the ray's direction, unit length
  uvec4 dims;
  uvec2 image_size;
} ray;

uint trace(vec3 o, vec3 d) {
  vec3 dims = vec3(ray.dims.xyz);
  float t0 = 0.0, t1 = 3.0e38;
  for (int a = 0; a < 3; ++a) {
    if (d[a] == 0.0) {
      if (o[a] < 0.0 || o[a] >= dims[a]) return 0u;
    } else {
      float ta = -o[a] / d[a], tb = (dims[a] - o[a]) / d[a];
      t0 = max(t0, min(ta, tb));
      t1 = min(t1, max(ta, tb));
    }
  }
  if (t0 >= t1) return 0u;
  ivec3 v = clamp(ivec3(floor(o + d * t0)), ivec3(0), ivec3(ray.dims.xyz) - 1);
  ivec3 step_dir = ivec3(sign(d));
  vec3 t_max, t_delta;
  for (int a = 0; a < 3; ++a) {
    t_delta[a] = d[a] == 0.0 ? 3.0e38 : abs(1.0 / d[a]);
    t_max[a] = d[a] > 0.0 ? (float(v[a] + 1) - o[a]) / d[a] : d[a] < 0.0 ? (float(v[a]) - o[a]) / d[a] : 3.0e38;
  }
  uint highest = 0u;
  int budget = int(ray.dims.x + ray.dims.y + ray.dims.z) + 3;  // a ray crosses at most this many voxels
  for (int i = 0; i < budget; ++i) {
    highest = max(highest, voxels[(uint(v.z) * ray.dims.y + uint(v.y)) * ray.dims.x + uint(v.x)]);
    int a = t_max.x < t_max.y ? (t_max.x < t_max.z ? 0 : 2) : (t_max.y < t_max.z ? 1 : 2);
    if (t_max[a] >= t1) break;
    v[a] += step_dir[a];
    if (v[a] < 0 || v[a] >= int(ray.dims[a])) break;
    t_max[a] += t_delta[a];
  }
  return highest;
}

void main() {
  uvec2 p = gl_GlobalInvocationID.xy;
  if (p.x >= ray.image_size.x || p.y >= ray.image_size.y) return;
  vec3 o = ray.origin.xyz + float(p.x) * ray.right.xyz + float(p.y) * ray.up.xyz;
  pixels[p.y * ray.image_size.x + p.x] = trace(o, ray.dir.xyz);
}
