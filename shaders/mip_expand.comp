#version 460
// One step of the 2-D synthesis of thesis §2.3.3: level k becomes the max of its projected
// details and EXPAND of level k + 1 (upsampling, then dilation by the projected structuring
// element, the 2x2 square: each coarse pixel covers the 2x2 fine pixels above it).
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, std430) buffer Levels { uint pixels[]; };
layout(push_constant) uniform Expand { uint level, width0, height0; } pc;
#include "include/mip_levels.glsl"

void main() {
  uvec2 p = gl_GlobalInvocationID.xy;
  uint width = pc.width0 >> pc.level, height = pc.height0 >> pc.level;
  if (p.x >= width || p.y >= height) return;
  uint fine = mip_level_offset(pc.level, pc.width0, pc.height0) + p.y * width + p.x;
  uint coarse = mip_level_offset(pc.level + 1u, pc.width0, pc.height0) + (p.y / 2u) * (width / 2u) + p.x / 2u;
  pixels[fine] = max(pixels[fine], pixels[coarse]);
}
