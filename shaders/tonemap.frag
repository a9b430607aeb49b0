#version 460
// HDR scene colour to the 8-bit output: exposure, ACES fit (Narkowicz 2015), sRGB encoding
// (done here because the output images are UNORM, so the PNG holds exactly what is shown).
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 out_color;
layout(set = 0, binding = 0) uniform sampler2D scene;
layout(push_constant) uniform Settings {
  float exposure;
  uint encode_srgb;
} settings;

vec3 aces(vec3 x) {
  return clamp((x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14), 0.0, 1.0);
}

vec3 srgb_encode(vec3 c) {
  return mix(12.92 * c, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(0.0031308, c));
}

void main() {
  vec3 color = aces(texture(scene, uv).rgb * settings.exposure);
  out_color = vec4(settings.encode_srgb != 0u ? srgb_encode(color) : color, 1.0);
}
