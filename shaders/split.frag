#version 460
// One frame from two renderings of the scene: the left one left of the divider, the right one
// right of it, and a thin bright line where they meet so the divider can be found and dragged.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 out_color;
layout(set = 0, binding = 0) uniform sampler2D left_scene;
layout(set = 0, binding = 1) uniform sampler2D right_scene;
layout(push_constant) uniform Split {
  float divider;     // x of the divider, in [0, 1] of the width
  float half_width;  // half the line's width, in the same units
} split;

void main() {
  const float x = uv.x - split.divider;
  vec4 color = x < 0.0 ? texture(left_scene, uv) : texture(right_scene, uv);
  // The line is HDR white, so it stays visible over any exposure the tonemap applies.
  if (abs(x) <= split.half_width) color = vec4(vec3(4.0), 1.0);
  out_color = color;
}
