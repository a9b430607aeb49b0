#version 460
// fluid.smooth, the separable filters: one 1D pass (horizontal or vertical) of either
//  - the bilateral Gaussian the thesis compares against (spatial Gaussian x range Gaussian), or
//  - the narrow-range filter of Truong & Yuksel (I3D 2018): a plain Gaussian over the samples
//    within a narrow depth range of the centre; samples further behind than `range` are
//    ignored (another surface) and samples in front by more than `clamp` are clamped to
//    z - clamp, so the filter neither smears silhouettes nor digs holes in thin sheets.
// The kernel width follows the particle's projected size at the pixel's depth.
layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;
layout(set = 0, binding = 0, r32f) uniform readonly image2D src;
layout(set = 0, binding = 1, r32f) uniform writeonly image2D dst;
layout(push_constant) uniform Constants {
  ivec2 direction;      // (1, 0) or (0, 1)
  float radius_pixels;  // particle radius in pixels at view depth 1 (divide by z)
  float sigma_scale;    // spatial sigma in particle radii
  float range;          // bilateral: range sigma; narrow range: ignore threshold (metres)
  float clamp_depth;    // narrow range: clamp distance in front (metres)
  uint narrow_range;    // 0 = bilateral, 1 = narrow range
  int max_radius;       // kernel half-width limit in pixels
} constants;

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  ivec2 size = imageSize(src);
  if (any(greaterThanEqual(p, size))) return;
  float z = imageLoad(src, p).r;
  if (z <= 0.0) {
    imageStore(dst, p, vec4(0.0));
    return;
  }
  float sigma = max(constants.sigma_scale * constants.radius_pixels / z, 0.5);
  int half_width = min(int(ceil(2.0 * sigma)), constants.max_radius);
  float inv_two_sigma2 = 1.0 / (2.0 * sigma * sigma);
  float inv_two_range2 = 1.0 / (2.0 * constants.range * constants.range);
  float sum = 0.0, weight = 0.0;
  for (int i = -half_width; i <= half_width; ++i) {
    ivec2 q = p + i * constants.direction;
    if (any(lessThan(q, ivec2(0))) || any(greaterThanEqual(q, size))) continue;
    float s = imageLoad(src, q).r;
    if (s <= 0.0) continue;  // background: never part of the average
    float w = exp(-float(i * i) * inv_two_sigma2);
    if (constants.narrow_range != 0u) {
      if (s > z + constants.range) continue;
      s = max(s, z - constants.clamp_depth);
    } else {
      float dz = s - z;
      w *= exp(-dz * dz * inv_two_range2);
    }
    sum += w * s;
    weight += w;
  }
  imageStore(dst, p, vec4(sum / weight));
}
