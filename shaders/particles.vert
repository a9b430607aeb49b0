#version 460
// Sphere impostors: each particle is a camera-facing quad of two triangles, expanded in view
// space, pulled from the particle buffer by gl_VertexIndex (no vertex input state).
#include "include/frame.glsl"

struct Particle {
  vec3 position;
  float density;
  vec3 velocity;
  float agitation;
};

layout(set = 0, binding = 0, std430) readonly buffer Particles { Particle particles[]; };
layout(set = 0, binding = 1, std430) readonly buffer FrameBuffer { Frame frame; };
layout(push_constant) uniform Settings {
  vec4 color;        // rgb, a = speed tint amount
  float radius;
  float speed_scale;  // speed at which the tint is fully applied
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
  // The quad is pushed towards the camera by one radius so the sphere's front surface, which
  // the fragment shader reconstructs, is never clipped by the quad's own depth.
  vec3 toward_camera = -normalize(center_view) * settings.radius;
  vec3 corner_view = center_view + toward_camera + vec3(corner * settings.radius * 1.05, 0.0);
  gl_Position = frame.proj * vec4(corner_view, 1.0);
  corner *= 1.05;

  float speed = length(p.velocity);
  vec3 fast = vec3(1.0, 0.85, 0.6);
  albedo = mix(settings.color.rgb, fast, settings.color.a * clamp(speed / settings.speed_scale, 0.0, 1.0));
}
