#version 460
// fluid.spray: the particles below the density threshold (stray particles that are not part of
// any surface, section 5.3.1), drawn as small lit sphere impostors with shaders/particles.frag.
// Surface particles are collapsed outside the clip volume.
#include "include/frame.glsl"
#include "include/fluid_common.glsl"

layout(set = 0, binding = 0, std430) readonly buffer Particles { Particle particles[]; };
layout(set = 0, binding = 1, std430) readonly buffer FrameBuffer { Frame frame; };
layout(push_constant) uniform Settings {
  vec4 color;          // rgb; a = 0 (no speed tint for spray)
  float radius;
  float speed_scale;
  float spray_density;
} settings;

layout(location = 0) out vec2 corner;
layout(location = 1) out vec3 center_view;
layout(location = 2) out vec3 albedo;

const vec2 kCorners[6] = vec2[](vec2(-1, -1), vec2(1, -1), vec2(1, 1),
                                vec2(-1, -1), vec2(1, 1), vec2(-1, 1));

void main() {
  Particle p = particles[gl_VertexIndex / 6];
  corner = kCorners[gl_VertexIndex % 6];
  center_view = (frame.view * vec4(p.position, 1.0)).xyz;
  albedo = settings.color.rgb;
  if (p.density >= settings.spray_density) {
    gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
    return;
  }
  vec3 toward_camera = -normalize(center_view) * settings.radius;
  vec3 corner_view = center_view + toward_camera + vec3(corner * settings.radius * 1.3, 0.0);
  gl_Position = frame.proj * vec4(corner_view, 1.0);
  corner *= 1.3;
}
