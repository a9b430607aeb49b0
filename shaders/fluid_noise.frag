#version 460
// fluid.noise (Eq. 5.10-5.12): each particle splats one octave of Perlin noise, chosen by its
// index, in its own sprite coordinates, so the noise pattern travels with the particle and the
// octaves of neighbouring particles drift against each other with the flow. The kernel is a
// Gaussian over the sprite times a fall-off with the particle's depth below the smoothed
// surface, so submerged particles fade out. Agitated particles (Eq. 5.12: a large velocity
// change, published by the stages as `agitation`) get a larger amplitude.
#include "include/frame.glsl"
#include "include/fluid_common.glsl"
#include "include/fluid_sprite.glsl"
#include "include/fluid_perlin.glsl"

layout(location = 1) in vec3 center_view;
layout(location = 2) in vec2 corner;
layout(location = 3) flat in uint index;
layout(location = 4) flat in float agitation;
layout(location = 0) out float out_noise;

layout(set = 0, binding = 1, std430) readonly buffer FrameBuffer { Frame frame; };
layout(set = 0, binding = 2) uniform sampler2D surface_depth;

const uint kOctaves = 3u;

void main() {
  float r2 = dot(corner, corner);
  if (r2 > 1.0) discard;
  float surface = texelFetch(surface_depth, ivec2(gl_FragCoord.xy), 0).r;
  if (surface <= 0.0) discard;
  // The particle's front at this point of the sprite, against the surface, in radii.
  float particle_z = -center_view.z - sprite.radius * sqrt(1.0 - r2);
  float below = (particle_z - surface) / sprite.radius;
  uint octave = index % kOctaves;
  float frequency = sprite.noise_frequency * float(1u << octave);
  float n = perlin(corner * frequency + vec2(float(index % 997u) * 1.37), index) / float(1u << octave);
  float hot = smoothstep(0.5 * sprite.agitation_threshold, sprite.agitation_threshold, agitation);
  float amplitude = sprite.noise_amplitude * (1.0 + sprite.agitation_boost * hot);
  out_noise = amplitude * n * exp(-r2 - below * below);
}
