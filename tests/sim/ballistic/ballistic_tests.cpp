// The ballistic stage's CPU backend against physics it must obey and the determinism it
// promises. (CPU ≡ CUDA is checked by meniscus-interop-cuda-tests on a GPU machine.)
#include <catch2/catch.hpp>

#include <tbb/global_control.h>

#include <cmath>
#include <cstring>
#include <string>

#include "engine/core/error.h"
#include "sim/ballistic/ballistic_cpu.h"
#include "sim/ballistic/ballistic_math.h"

namespace meniscus::sim {
namespace {

using Catch::Matchers::Contains;

std::vector<Particle> run(const BallisticParams& params, int frames, int threads) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
  BallisticCpu stage(params);
  for (int i = 0; i < frames; ++i) stage.step(1.0 / 60.0);
  return stage.particles();
}

}  // namespace

TEST_CASE("ballistic: bit-identical across runs and thread counts", "[ballistic][determinism]") {
  BallisticParams params;
  params.count = 5000;
  const auto a = run(params, 90, 1);
  const auto b = run(params, 90, 2);
  const auto c = run(params, 90, 2);
  REQUIRE(a.size() == b.size());
  CHECK(std::memcmp(a.data(), b.data(), a.size() * sizeof(Particle)) == 0);
  CHECK(std::memcmp(b.data(), c.data(), b.size() * sizeof(Particle)) == 0);
  params.seed = 2;
  const auto d = run(params, 90, 2);
  CHECK(std::memcmp(a.data(), d.data(), a.size() * sizeof(Particle)) != 0);  // the seed matters
}

TEST_CASE("free flight follows the analytic parabola", "[ballistic][physics]") {
  BallisticParams params;
  params.particle_lifetime = 100.0f;  // no respawn in the test window
  params.emitter_center[1] = 50.0f;   // high above the ground: no collision
  params.fixed_dt = 1.0f / 240.0f;
  const uint32_t index = 17;
  ballistic::State s = ballistic::spawn(params, index, 0);
  const ballistic::State start = s;
  const int steps = 480;  // 2 s
  for (int i = 0; i < steps; ++i) ballistic::advance(s, params, index, params.fixed_dt);
  const double t = steps * double(params.fixed_dt);
  for (int k = 0; k < 3; ++k) {
    const double expected = start.position[k] + start.velocity[k] * t + 0.5 * params.gravity[k] * t * t;
    CHECK(s.position[k] == Approx(expected).epsilon(1e-5).margin(1e-5));
    CHECK(s.velocity[k] == Approx(start.velocity[k] + params.gravity[k] * t).epsilon(1e-5).margin(1e-5));
  }
}

TEST_CASE("no particle ever goes below the ground", "[ballistic][physics]") {
  BallisticParams params;
  params.count = 4000;
  BallisticCpu stage(params);
  float lowest = 1e9f;
  for (int frame = 0; frame < 240; ++frame) {
    stage.step(1.0 / 60.0);
    for (const Particle& p : stage.particles()) lowest = std::min(lowest, p.position[1]);
  }
  CHECK(lowest >= params.ground_height);
  CHECK(lowest == Approx(params.ground_height).margin(1e-6));  // and some do land
}

TEST_CASE("bounces keep at most the restitution share of the normal speed", "[ballistic][physics]") {
  BallisticParams params;
  params.particle_lifetime = 100.0f;
  params.restitution = 0.5f;
  params.friction = 0.0f;
  params.spread_degrees = 0.0f;  // straight up
  ballistic::State s = ballistic::spawn(params, 3, 0);
  const float launch = s.velocity[1];
  float after_bounce = 0.0f;
  bool bounced = false;
  for (int i = 0; i < 4000 && !bounced; ++i) {
    const float before = s.velocity[1];
    ballistic::advance(s, params, 3, params.fixed_dt);
    if (before < 0.0f && s.velocity[1] > 0.0f) {
      bounced = true;
      after_bounce = s.velocity[1];
    }
  }
  REQUIRE(bounced);
  // Energy: it reaches the ground (emitter height h above it) at sqrt(v0^2 + 2 g h); the bounce
  // keeps half of that. 2% covers the step in which the contact happens.
  const float h = params.emitter_center[1] - params.ground_height;
  const float impact = std::sqrt(launch * launch + 2.0f * -params.gravity[1] * h);
  CHECK(after_bounce == Approx(0.5f * impact).epsilon(0.02));
}

TEST_CASE("particles respawn at the emitter after their lifetime", "[ballistic][lifetime]") {
  BallisticParams params;
  params.count = 1;
  ballistic::State s = ballistic::spawn(params, 0, 0);
  const int steps = int(std::ceil(params.particle_lifetime / params.fixed_dt));
  for (int i = 0; i < steps; ++i) ballistic::advance(s, params, 0, params.fixed_dt);
  CHECK(s.generation == 1);
  CHECK(s.age < params.fixed_dt);
  const float dx = s.position[0] - params.emitter_center[0], dz = s.position[2] - params.emitter_center[2];
  CHECK(std::sqrt(dx * dx + dz * dz) <= params.emitter_radius + 1e-6f);
  CHECK(s.position[1] == Approx(params.emitter_center[1]));
}

TEST_CASE("the fountain starts full: initial ages are spread over the lifetime", "[ballistic][lifetime]") {
  BallisticParams params;
  params.count = 2000;
  BallisticCpu stage(params);
  double mean_age = 0;
  for (const auto& s : stage.states()) mean_age += s.age;
  mean_age /= params.count;
  CHECK(mean_age == Approx(params.particle_lifetime / 2).epsilon(0.05));
}

TEST_CASE("bad parameters are errors naming the field", "[ballistic][errors]") {
  BallisticParams p;
  p.count = 0;
  CHECK_THROWS_WITH(p.validate(), Contains("ballistic.count"));
  p = {};
  p.speed_max = p.speed_min - 1;
  CHECK_THROWS_WITH(p.validate(), Contains("ballistic.speed_max"));
  p = {};
  p.gravity[1] = std::nanf("");
  CHECK_THROWS_WITH(p.validate(), Contains("ballistic.gravity"));
  p = {};
  p.fixed_dt = 0;
  CHECK_THROWS_WITH(p.validate(), Contains("ballistic.fixed_dt"));
  p = {};
  p.restitution = 1.5f;
  CHECK_THROWS_WITH(p.validate(), Contains("ballistic.restitution"));
}

TEST_CASE("a step that produces non-finite values is an error naming the lowest bad particle", "[ballistic][errors]") {
  BallisticParams params;
  params.count = 1000;
  // Finite inputs whose first step overflows: launched upwards at 1e38 m/s from 3.4e38 m.
  params.emitter_center[1] = 3.4e38f;
  params.speed_min = params.speed_max = 1.0e38f;
  params.spread_degrees = 0.0f;
  BallisticCpu stage(params);
  std::string message;
  try {
    stage.step(1.0 / 60.0);
  } catch (const DeviceError& error) {
    message = error.what();
  }
  INFO(message);
  REQUIRE_THAT(message, Contains("ballistic (cpu): particle "));
  const auto index = std::stoul(message.substr(message.find("particle ") + 9));
  REQUIRE(index < params.count);
  // The index named is the first non-finite one, whatever the thread partitioning.
  CHECK_FALSE(ballistic::finite(stage.states()[index]));
  for (size_t i = 0; i < index; ++i) CHECK(ballistic::finite(stage.states()[i]));
}

TEST_CASE("finite steps raise no error", "[ballistic][errors]") {
  BallisticParams params;
  params.count = 1000;
  BallisticCpu stage(params);
  CHECK_NOTHROW(stage.step(10.0));  // 2400 fixed steps, several lifetimes
  for (const auto& s : stage.states()) CHECK(ballistic::finite(s));
}

}  // namespace meniscus::sim
