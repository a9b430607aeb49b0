// Push constants of the fluid sprite passes (mirrors passes/fluid/fluid_sprite_constants.h).
layout(push_constant) uniform SpriteConstants {
  float radius;               // particle radius, metres
  float spray_density;        // particles with a lower density are spray, not surface
  float scene_scale;          // full-resolution pixels per fluid pixel
  float noise_amplitude;      // Eq. 5.11 amplitude of a calm particle
  float agitation_threshold;  // tau of Eq. 5.12, m/s
  float agitation_boost;      // extra amplitude factor for agitated particles
  float noise_frequency;      // lowest octave: cycles across a sprite
  float pad;
} sprite;
