#version 460
// Projects pyramid coefficients (sim/mip/coefficient_stream.h) along the view axis with an
// atomic max, each where the MIP algorithm needs it:
//   per level (dilate = 0): into its own level's image, one pixel (thesis §2.3.3, §2.4.3);
//   streaming (dilate = 1): into level 0 as a 2^level square, the local dilation of §2.3.4.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0, std430) readonly buffer Coefficients { uvec2 coefficients[]; };
layout(set = 0, binding = 1, std430) buffer Levels { uint pixels[]; };
layout(push_constant) uniform Project {
  uint first, count, axis, dilate;
  uint width0, height0;  // the padded level-0 image
} pc;
#include "include/mip_levels.glsl"

void main() {
  for (uint i = gl_GlobalInvocationID.x; i < pc.count; i += gl_NumWorkGroups.x * 256u) {
    uvec2 c = coefficients[pc.first + i];
    uvec3 p = uvec3(c.x & 0x7ffu, (c.x >> 11) & 0x7ffu, c.x >> 22);
    uint value = c.y & 0xffffu, level = c.y >> 16;
    uvec2 uv = mip_image_coordinates(p, pc.axis);
    if (pc.dilate == 0u) {
      uint offset = mip_level_offset(level, pc.width0, pc.height0);
      atomicMax(pixels[offset + uv.y * (pc.width0 >> level) + uv.x], value);
    } else {
      uint size = 1u << level;
      uvec2 corner = uv * size;
      for (uint dv = 0u; dv < size; ++dv)
        for (uint du = 0u; du < size; ++du) atomicMax(pixels[(corner.y + dv) * pc.width0 + corner.x + du], value);
    }
  }
}
