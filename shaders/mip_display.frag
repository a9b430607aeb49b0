#version 460
// The MIP image on screen: nearest pixels, fitted to the frame with the voxels' aspect, grey
// through the window (level +- width / 2 maps to black..white); black around it.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 out_color;
layout(set = 0, binding = 0, std430) readonly buffer Image { uint pixels[]; };
layout(push_constant) uniform Display {
  vec2 corner;       // frame pixel of the image's top-left corner
  vec2 pixel_size;   // frame pixels per image pixel
  uint stride, width, height, flip_v;
  float window_low, window_width;  // in grey levels
  uint decode_srgb;  // an sRGB target re-encodes in hardware: hand it the linear value
} pc;

void main() {
  vec2 q = (gl_FragCoord.xy - pc.corner) / pc.pixel_size;
  if (q.x < 0.0 || q.y < 0.0 || q.x >= float(pc.width) || q.y >= float(pc.height)) {
    out_color = vec4(0.0, 0.0, 0.0, 1.0);
    return;
  }
  uvec2 p = min(uvec2(q), uvec2(pc.width - 1u, pc.height - 1u));
  if (pc.flip_v != 0u) p.y = pc.height - 1u - p.y;
  float grey = clamp((float(pixels[p.y * pc.stride + p.x]) - pc.window_low) / pc.window_width, 0.0, 1.0);
  if (pc.decode_srgb != 0u) grey = grey <= 0.04045 ? grey / 12.92 : pow((grey + 0.055) / 1.055, 2.4);
  out_color = vec4(vec3(grey), 1.0);
}
