#pragma once
// Settings of the ballistic particle fountain (scenes: [[stage]] type = "ballistic").
#include <cstdint>

namespace meniscus::sim {

struct BallisticParams {
  uint32_t count = 20000;
  uint64_t seed = 1;
  float emitter_center[3] = {0.0f, 0.05f, 0.0f};
  float emitter_radius = 0.1f;       // particles start in a disk of this radius (xz plane)
  float speed_min = 4.0f;            // m/s
  float speed_max = 6.0f;
  float spread_degrees = 12.0f;      // half-angle of the launch cone around +y
  float gravity[3] = {0.0f, -9.81f, 0.0f};
  float restitution = 0.4f;          // normal velocity kept on ground contact
  float friction = 0.2f;             // tangential velocity lost on ground contact
  float particle_lifetime = 2.5f;    // seconds before a particle respawns at the emitter
  float fixed_dt = 1.0f / 240.0f;    // integration step
  float ground_height = 0.0f;

  static constexpr uint32_t kMaxCount = 1u << 28;

  // Throws InputError naming `ballistic.<field>` for a value outside its range.
  void validate() const;
};

}  // namespace meniscus::sim
