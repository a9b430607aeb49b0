#version 460
// Bakes the procedural sky into a cubemap, once per environment change.
#include "include/frame.glsl"
#include "include/sky.glsl"

layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;
layout(set = 0, binding = 0, rgba16f) uniform writeonly image2DArray cube;
layout(set = 0, binding = 1, std430) readonly buffer FrameBuffer { Frame frame; };

void main() {
  ivec3 size = imageSize(cube);
  ivec3 texel = ivec3(gl_GlobalInvocationID);
  if (texel.x >= size.x || texel.y >= size.y) return;
  vec2 uv = (vec2(texel.xy) + 0.5) / vec2(size.xy) * 2.0 - 1.0;
  vec3 dir = cube_direction(uint(texel.z), uv);
  vec3 color = sky_radiance(dir, normalize(frame.sun_direction.xyz), frame.sun_color.rgb,
                            frame.sun_direction.w, frame.sky_zenith.rgb, frame.sky_horizon.rgb);
  imageStore(cube, texel, vec4(color, 1.0));
}
