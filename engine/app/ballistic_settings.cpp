#include "engine/app/ballistic_settings.h"

#include <algorithm>
#include <cmath>

#include "engine/core/input_limits.h"

namespace meniscus {

sim::BallisticParams read_ballistic_settings(const ParamTable& t, const Scene& scene) {
  sim::BallisticParams p;
  p.count = static_cast<uint32_t>(t.integer("count", p.count, 1, std::min<int64_t>(10'000'000, limits::kMaxParticles)));
  p.seed = static_cast<uint64_t>(t.integer("seed", int64_t(p.seed), 0, INT64_MAX));
  read_vec3(t, "emitter_center", p.emitter_center);
  p.emitter_radius = float(t.number("emitter_radius", p.emitter_radius, 0.0, 1e6));
  p.speed_min = float(t.number("speed_min", p.speed_min, 0.0, 1e5));
  p.speed_max = float(t.number("speed_max", p.speed_max, 0.0, 1e5));
  if (p.speed_max < p.speed_min) t.fail("speed_max", "must be >= speed_min (" + limits::number_text(p.speed_min) + ")");
  p.spread_degrees = float(t.number("spread_degrees", p.spread_degrees, 0.0, 180.0));
  read_vec3(t, "gravity", p.gravity);
  p.restitution = float(t.number("restitution", p.restitution, 0.0, 1.0));
  p.friction = float(t.number("friction", p.friction, 0.0, 1.0));
  p.particle_lifetime = float(t.number("particle_lifetime", p.particle_lifetime, 1e-3, 1e6));
  p.fixed_dt = float(t.number("fixed_dt", p.fixed_dt, 1e-6, 1.0));
  if (p.particle_lifetime / p.fixed_dt > 1e6f) t.fail("fixed_dt", "too small for particle_lifetime (over 1e6 steps)");
  // Every particle is aged by up to particle_lifetime / fixed_dt steps before the first frame:
  // a huge count times many steps is a capture that never starts.
  const double warm_up_steps = std::ceil(double(p.particle_lifetime) / double(p.fixed_dt));
  if (double(p.count) * warm_up_steps > double(limits::kMaxParticleWarmUpSteps))
    t.fail("count", "declares " + std::to_string(p.count) + " particles x " + std::to_string(uint64_t(warm_up_steps)) +
                        " warm-up steps (particle_lifetime / fixed_dt) = " +
                        std::to_string(uint64_t(double(p.count) * warm_up_steps)) +
                        " particle steps before the first frame, over the limit of " +
                        std::to_string(limits::kMaxParticleWarmUpSteps) + " (engine/core/input_limits.h)");
  p.ground_height = scene.environment.ground_height;
  t.finish();
  return p;
}

}  // namespace meniscus
