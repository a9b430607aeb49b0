#version 460
// fluid.upsample: the shaded fluid (fluid resolution) over the scene (full resolution). The
// thesis' interpolation: inside the fluid everything is interpolated, but over silhouettes it
// is the final shaded colour (premultiplied, coverage in alpha) that is blended, never depth or
// normals, so low-resolution silhouettes come out soft rather than jagged. Depth is the
// bilinear average of only the taps that hold fluid, written so later passes (spray, UI, other
// surfaces) are occluded by the fluid correctly. At full resolution this is an exact copy.
#include "include/frame.glsl"
#include "include/fluid_common.glsl"

layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 out_color;

layout(set = 0, binding = 0, std430) readonly buffer FrameBuffer { Frame frame; };
layout(set = 0, binding = 1) uniform sampler2D fluid_color;   // linear filtering
layout(set = 0, binding = 2) uniform sampler2D surface_depth;

void main() {
  vec4 c = texture(fluid_color, uv);
  if (c.a < 1.0 / 255.0) discard;
  ivec2 size = textureSize(surface_depth, 0);
  vec2 f = uv * vec2(size) - 0.5;
  ivec2 base = ivec2(floor(f));
  vec2 w = fract(f);
  float sum = 0.0, weight = 0.0;
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < 2; ++i) {
      ivec2 q = clamp(base + ivec2(i, j), ivec2(0), size - 1);
      float z = texelFetch(surface_depth, q, 0).r;
      float tap = (i == 1 ? w.x : 1.0 - w.x) * (j == 1 ? w.y : 1.0 - w.y);
      if (z > 0.0) {
        sum += tap * z;
        weight += tap;
      }
    }
  if (weight <= 0.0) discard;
  gl_FragDepth = clamp(depth_from_view(frame.proj, sum / weight), 0.0, 1.0);
  out_color = vec4(c.rgb / c.a, c.a);  // alpha blending of straight colour = premultiplied over
}
