#version 460
// fluid.smooth, screen-space curvature flow (thesis Eq. 5.1-5.8): one explicit Euler step of
// dz/dt = H on the view-depth image, src -> dst; the pass ping-pongs `iterations` steps.
//
// Sign: with z the positive view depth, the normal of Eq. 5.4 points away from the viewer, so
// for small slopes 2H = -(z_xx / Cx + z_yy / Cy) / z. Stepping z by -H is therefore the diffusive
// direction (a bump towards the camera is pushed back); stepping by +H would sharpen it.
//
// Time step: the flow's diffusion coefficient in pixels is 1 / (2 C z), so explicit Euler is
// stable for dt <= z Cx Cy / (Cx + Cy). `time_step` is the fraction of that limit taken at each
// pixel, which makes one setting stable at every resolution and depth; the thesis instead picks
// one dt per resolution by hand and raises the iteration count at full resolution.
layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;
layout(set = 0, binding = 0, r32f) uniform readonly image2D src;
layout(set = 0, binding = 1, r32f) uniform writeonly image2D dst;
layout(push_constant) uniform Constants {
  vec2 c;           // (Cx, Cy)
  float time_step;  // fraction of the per-pixel stability limit, (0, 1]
  float edge;       // depth discontinuity threshold, metres
} constants;

float fluid_load(ivec2 p) {
  ivec2 size = imageSize(src);
  if (any(lessThan(p, ivec2(0))) || any(greaterThanEqual(p, size))) return 0.0;
  return imageLoad(src, p).r;
}

#include "include/fluid_curvature.glsl"

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, imageSize(src)))) return;
  float z = imageLoad(src, p).r;
  // Pixels without fluid stay without fluid: the flow never spreads depth into the background.
  if (z <= 0.0) {
    imageStore(dst, p, vec4(0.0));
    return;
  }
  vec2 c = constants.c;
  float dt = constants.time_step * z * c.x * c.y / (c.x + c.y);
  float h = mean_curvature(p, z, c, constants.edge);
  imageStore(dst, p, vec4(max(z - dt * h, 1e-6)));
}
