#version 460
// Point sprites for the fluid particle passes (depth, thickness, noise): a quad per particle,
// facing the camera, pulled from the particle buffer by gl_VertexIndex. Particles whose density
// is below the spray threshold are dropped here (collapsed outside the clip volume): the spray
// pass draws them instead, so they do not form part of any surface (thesis section 5.3.1).
#include "include/frame.glsl"
#include "include/fluid_common.glsl"
#include "include/fluid_sprite.glsl"

layout(set = 0, binding = 0, std430) readonly buffer Particles { Particle particles[]; };
layout(set = 0, binding = 1, std430) readonly buffer FrameBuffer { Frame frame; };

layout(location = 0) out vec3 quad_view;    // this corner in view space (interpolated: the quad point)
layout(location = 1) out vec3 center_view;
layout(location = 2) out vec2 corner;       // [-1, 1] over the sprite (noise kernel coordinates)
layout(location = 3) flat out uint index;
layout(location = 4) flat out float agitation;

const vec2 kCorners[6] = vec2[](vec2(-1, -1), vec2(1, -1), vec2(1, 1),
                                vec2(-1, -1), vec2(1, 1), vec2(-1, 1));

void main() {
  index = uint(gl_VertexIndex) / 6u;
  Particle p = particles[index];
  corner = kCorners[gl_VertexIndex % 6];
  agitation = p.agitation;
  center_view = (frame.view * vec4(p.position, 1.0)).xyz;
  if (p.density < sprite.spray_density) {
    gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
    return;
  }
  // The quad sits one radius in front of the centre and is 1.3 radii wide: off-axis a sphere
  // projects to an ellipse stretched by ~1/cos(angle), which must stay inside the quad up to
  // ~40 degrees off the view axis. Fragments find the exact hit by ray casting.
  vec3 toward_camera = -normalize(center_view) * sprite.radius;
  quad_view = center_view + toward_camera + vec3(corner * sprite.radius * 1.3, 0.0);
  corner *= 1.3;
  gl_Position = frame.proj * vec4(quad_view, 1.0);
}
