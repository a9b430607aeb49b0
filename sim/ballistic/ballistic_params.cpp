#include "sim/ballistic/ballistic_params.h"

#include <cmath>
#include <string>

#include "engine/core/error.h"

namespace meniscus::sim {
namespace {

void require(bool ok, const char* field, const std::string& what) {
  if (!ok) throw InputError(std::string("ballistic.") + field + ": " + what);
}

bool finite3(const float v[3]) { return std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]); }

}  // namespace

void BallisticParams::validate() const {
  require(count >= 1, "count", "must be at least 1");
  require(count <= kMaxCount, "count", "must be at most " + std::to_string(kMaxCount) + " (8 GiB of particles)");
  require(finite3(emitter_center), "emitter_center", "must be finite");
  require(finite3(gravity), "gravity", "must be finite");
  require(std::isfinite(emitter_radius) && emitter_radius >= 0, "emitter_radius", "must be a finite number >= 0");
  require(std::isfinite(speed_min) && speed_min >= 0, "speed_min", "must be a finite number >= 0");
  require(std::isfinite(speed_max) && speed_max >= speed_min, "speed_max", "must be finite and >= speed_min");
  require(std::isfinite(spread_degrees) && spread_degrees >= 0 && spread_degrees <= 180, "spread_degrees",
          "must be in [0, 180]");
  require(std::isfinite(restitution) && restitution >= 0 && restitution <= 1, "restitution", "must be in [0, 1]");
  require(std::isfinite(friction) && friction >= 0 && friction <= 1, "friction", "must be in [0, 1]");
  require(std::isfinite(particle_lifetime) && particle_lifetime > 0, "particle_lifetime", "must be > 0");
  require(std::isfinite(fixed_dt) && fixed_dt > 0, "fixed_dt", "must be > 0");
  require(std::isfinite(ground_height), "ground_height", "must be finite");
  // Initial ages are advanced in fixed steps; an absurd ratio would stall start-up.
  require(particle_lifetime / fixed_dt <= 1e6f, "fixed_dt", "is too small for particle_lifetime (over 1e6 steps)");
}

}  // namespace meniscus::sim
