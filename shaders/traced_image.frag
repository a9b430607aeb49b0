#version 460
// A ray-traced frame (linear radiance, RGBA32F, row 0 at the top) into the scene's HDR colour:
// bilinear, the image fitted to the frame with its own aspect, black around it.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 out_color;
layout(set = 0, binding = 0, std430) readonly buffer Image { vec4 pixels[]; };
layout(push_constant) uniform Display {
  vec2 corner;      // frame pixel of the image's top-left corner
  float scale;      // frame pixels per image pixel
  uint width, height;
} pc;

vec3 texel(ivec2 p) {
  p = clamp(p, ivec2(0), ivec2(int(pc.width) - 1, int(pc.height) - 1));
  return pixels[uint(p.y) * pc.width + uint(p.x)].rgb;
}

void main() {
  vec2 q = (gl_FragCoord.xy - pc.corner) / pc.scale;  // in image pixels
  if (q.x < 0.0 || q.y < 0.0 || q.x >= float(pc.width) || q.y >= float(pc.height)) {
    out_color = vec4(0.0, 0.0, 0.0, 1.0);
    return;
  }
  vec2 f = q - 0.5;
  ivec2 p = ivec2(floor(f));
  vec2 w = f - vec2(p);
  vec3 c = mix(mix(texel(p), texel(p + ivec2(1, 0)), w.x), mix(texel(p + ivec2(0, 1)), texel(p + ivec2(1, 1)), w.x), w.y);
  out_color = vec4(c, 1.0);
}
